import Foundation
import Testing
@testable import JSONImport

/// Files of a megabyte or more are mapped rather than read (`JSONInput(mapping:size:)`).
@Suite struct MappedInputTests {
    static let record = #"{"id": 1, "login": "a"}"#

    /// Records in a file of `size` bytes.
    static func records(in size: Int) -> Int { (size - 2) / (record.utf8.count + 1) }

    /// A file of `size` bytes, an array of ``records(in:)`` records, in a new directory
    /// removed after `body`.
    func withFile(size: Int, _ body: (String, Data) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-mapped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "[" + Array(repeating: Self.record, count: Self.records(in: size)).joined(separator: ",")
        text += String(repeating: " ", count: size - text.utf8.count - 1) + "]"
        let data = Data(text.utf8)
        #expect(data.count == size)
        let path = directory.path + "/payload.json"
        try data.write(to: URL(fileURLWithPath: path))
        try body(path, data)
    }

    /// The bytes are the file's, and the padding after them reads as zeros, also when the file
    /// ends a page exactly (the padding then lies in a page of its own).
    @Test(arguments: [PayloadReader.mappingSize, PayloadReader.mappingSize + 4000, PayloadReader.mappingSize + 4095])
    func mappedBytesAreTheFilesWithZeroedPadding(size: Int) throws {
        try withFile(size: size) { path, data in
            let handle = try #require(fopen(path, "rb"))
            defer { fclose(handle) }
            let input = try #require(PayloadReader.read(handle, size: size))
            #expect(Data(input.bytes) == data)
            #expect(UnsafeBufferPointer(start: input.base + size, count: JSONInput.padding).allSatisfy { $0 == 0 })
            #expect(!input.fileChanged)
            let document = try JSONParser().parse(input)
            #expect(withExtendedLifetime(document) { document.root.count } == Self.records(in: size))
        }
    }

    /// A file that becomes shorter while mapped does not stop the process: the bytes it lost
    /// read as zeros, and the input says the file changed.
    @Test func aFileThatBecomesShorterReadsAsZerosAndIsChanged() throws {
        try withFile(size: 3 * PayloadReader.mappingSize) { path, data in
            let handle = try #require(fopen(path, "rb"))
            defer { fclose(handle) }
            let input = try #require(PayloadReader.read(handle, size: data.count))
            #expect(truncate(path, off_t(PayloadReader.mappingSize)) == 0)
            let kept = Data(UnsafeBufferPointer(start: input.base, count: PayloadReader.mappingSize))
            let lost = UnsafeBufferPointer(start: input.base + PayloadReader.mappingSize, count: data.count - PayloadReader.mappingSize)
            #expect(kept == data.prefix(PayloadReader.mappingSize))
            #expect(lost.allSatisfy { $0 == 0 })
            #expect(input.fileChanged)
            #expect(throws: JSONSyntaxError.self) { try JSONParser().parse(input) }
        }
    }

    /// Smaller files are read; a descriptor that names no file maps nothing.
    @Test func smallFilesAreRead() throws {
        try withFile(size: PayloadReader.mappingSize - 1) { path, data in
            let handle = try #require(fopen(path, "rb"))
            defer { fclose(handle) }
            let input = try #require(PayloadReader.read(handle, size: data.count))
            #expect(Data(input.bytes) == data)
            #expect(JSONInput(mapping: -1, size: data.count) == nil)
        }
    }
}
