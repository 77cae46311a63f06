import Foundation

/// A fresh directory under the system's temporary directory, removed when released.
///
/// ```swift
/// let directory = try TemporaryDirectory()
/// try directory.write("entities: {}", to: "Mappings/empty.yml")
/// ```
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("jsonimport-e2e-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The directory's path.
    var path: String { url.path }

    /// Writes `contents` to `relativePath` inside the directory, creating folders on the way.
    @discardableResult
    func write(_ contents: String, to relativePath: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: file)
        return file
    }

    /// The path of `relativePath` inside the directory.
    func path(_ relativePath: String) -> String {
        url.appendingPathComponent(relativePath).path
    }

    /// The names of the files in the directory, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}
