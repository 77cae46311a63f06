import Foundation

// Past the file-size limit (`ulimit -f`), a write fails with EFBIG and the store reports it as a
// store error; the signal's default action would end the process without a word.
signal(SIGXFSZ, SIG_IGN)

let tool = JSONImportTool(environment: ProcessInfo.processInfo.environment, output: Output(isQuiet: false), isProgram: true)
exit(tool.run(Array(CommandLine.arguments.dropFirst())).rawValue)
