// Generates Swift types for a target's mappings at build time: the `*.yml` / `*.yaml` files in
// the target's `Mappings/` directory go through `jsonimport codegen --out-file`, and the one
// file it writes is compiled into the target.
import Foundation
import PackagePlugin

@main
struct JSONImportCodegen: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        // The YAML files themselves, or the directory when it is copied as one resource.
        var inputs: [URL] = []
        for file in target.sourceFiles {
            if file.url.lastPathComponent == "Mappings" {
                let listed = (try? FileManager.default.contentsOfDirectory(at: file.url, includingPropertiesForKeys: nil)) ?? []
                inputs += listed.filter { ["yml", "yaml"].contains($0.pathExtension) }
            } else if ["yml", "yaml"].contains(file.url.pathExtension),
                file.url.deletingLastPathComponent().lastPathComponent == "Mappings"
            {
                inputs.append(file.url)
            }
        }
        inputs.sort { $0.path() < $1.path() }
        guard let mappings = inputs.first?.deletingLastPathComponent() else {
            Diagnostics.warning("\(target.name): no Mappings/*.yml to generate types from")
            return []
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "JSONImportEntities.swift")
        return [
            .buildCommand(
                displayName: "Generating Swift types for the mappings of \(target.name)",
                executable: try context.tool(named: "jsonimport").url,
                arguments: ["--quiet", "codegen", "--mappings", mappings.path(), "--out-file", output.path()],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
