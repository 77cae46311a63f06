import Foundation

/// Loading mappings from YAML (SPEC 1): every problem is reported at once, each with its
/// file, line and column.
extension MappingSpec {
    /// Loads and validates the mappings at `path`.
    ///
    /// `path` is a directory, whose `*.yml` and `*.yaml` files are read in name order (not
    /// recursively; hidden files are skipped, as a shell glob skips them), or a single file.
    ///
    /// ```swift
    /// let spec = try MappingSpec.load(from: "Mappings")
    /// ```
    ///
    /// - Parameter path: a mappings directory or file.
    /// - Returns: the resolved, immutable model.
    /// - Throws: ``MappingLoadError`` listing every problem: unreadable files, YAML syntax
    ///   errors, and every rule of SPEC 1.1–1.3 that is broken.
    public static func load(from path: String) throws(MappingLoadError) -> MappingSpec {
        var loader = MappingLoader()
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw unreadable(path, "cannot read '\(path)': no such file or directory", code: .unreadableFile)
        }
        var paths = [path]
        if isDirectory.boolValue {
            guard let names = try? manager.contentsOfDirectory(atPath: path) else {
                throw unreadable(path, "cannot read directory '\(path)'", code: .unreadableFile)
            }
            let directory = path.hasSuffix("/") ? path : path + "/"
            paths = names.filter { name in
                var isSubdirectory: ObjCBool = false
                return !name.hasPrefix(".") && (name.hasSuffix(".yml") || name.hasSuffix(".yaml"))
                    && manager.fileExists(atPath: directory + name, isDirectory: &isSubdirectory)
                    && !isSubdirectory.boolValue
            }.sorted().map { directory + $0 }
            guard !paths.isEmpty else {
                throw unreadable(path, "no mapping files (*.yml, *.yaml) in '\(path)'", code: .noMappingFiles)
            }
        }
        for file in paths {
            guard let data = manager.contents(atPath: file) else {
                loader.report(
                    .unreadableFile, "cannot read '\(file)'", at: SourceLocation(file: file, line: 1, column: 1))
                continue
            }
            guard let text = String(data: data, encoding: .utf8) else {
                let (line, column) = firstInvalidUTF8(in: data)
                loader.report(
                    .unreadableFile, "'\(file)' is not UTF-8 text: invalid byte sequence",
                    at: SourceLocation(file: file, line: line, column: column))
                continue
            }
            loader.read(file: file, text: text)
        }
        return try loader.finish()
    }

    /// Loads and validates mappings from YAML text.
    ///
    /// ```swift
    /// let spec = try MappingSpec.load(yaml: """
    ///     entities:
    ///       Tag:
    ///         primaryKey: name
    ///         attributes: {name: string}
    ///     """)
    /// ```
    ///
    /// - Parameters:
    ///   - yaml: the text of one mapping file.
    ///   - file: the name diagnostics give the text.
    /// - Returns: the resolved, immutable model.
    /// - Throws: ``MappingLoadError`` listing every problem found.
    public static func load(yaml: String, file: String = "mappings.yml") throws(MappingLoadError) -> MappingSpec {
        try load(files: [(path: file, text: yaml)])
    }

    /// Loads and validates several mapping files given as text, as if read from one directory
    /// in this order.
    ///
    /// - Parameter files: each file's name (used in diagnostics) and text.
    /// - Returns: the resolved, immutable model.
    /// - Throws: ``MappingLoadError`` listing every problem found, across all files.
    public static func load(files: [(path: String, text: String)]) throws(MappingLoadError) -> MappingSpec {
        var loader = MappingLoader()
        for file in files { loader.read(file: file.path, text: file.text) }
        return try loader.finish()
    }

    /// The 1-based line and character column of the first byte of `data` that is not valid UTF-8.
    private static func firstInvalidUTF8(in data: Data) -> (Int, Int) {
        var line = 1
        var column = 1
        var iterator = data.makeIterator()
        var decoder = UTF8()
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    private static func unreadable(_ path: String, _ message: String, code: MappingDiagnostic.Code) -> MappingLoadError
    {
        MappingLoadError(diagnostics: [
            MappingDiagnostic(code: code, location: SourceLocation(file: path, line: 1, column: 1), message: message)
        ])
    }
}
