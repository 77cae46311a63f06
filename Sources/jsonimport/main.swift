import Foundation

let tool = JSONImportTool(environment: ProcessInfo.processInfo.environment, output: Output(isQuiet: false))
exit(tool.run(Array(CommandLine.arguments.dropFirst())).rawValue)
