import Foundation
import Testing
@testable import JSONImport

/// A payload file read while the store opens (`jsonimport import` reads its first file so):
/// the import takes its bytes once, and reads the file itself otherwise.
@Suite struct PayloadReadAheadTests {
    /// `body` with a new directory, removed after it.
    func withDirectory(_ body: (String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonimport-read-ahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(directory.path)
    }

    /// A document of `StreamedDocumentTests.users` users, over ``PayloadReadAhead/minimumSize``.
    static func writeUsers(into directory: String, login: String = "user") throws -> String {
        let path = directory + "/users.json"
        let records = StreamedDocumentTests.records().replacingOccurrences(of: "\"user-", with: "\"\(login)-")
        try Data(("[" + records + "]").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func anImportTakesTheBytesReadAhead() throws {
        try withDirectory { directory in
            let path = try Self.writeUsers(into: directory)
            let readAhead = try #require(PayloadReadAhead(path: path, options: .default))
            let file = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(readAhead.take(path).map { Data(UnsafeBufferPointer(start: $0.0.base, count: $0.0.count)) } == file)
            #expect(readAhead.take(path) == nil, "taken once")

            let second = try #require(PayloadReadAhead(path: path, options: .default))
            #expect(second.take("other.json") == nil, "another file's")
            let mapper = try makeMapper()
            let report = try mapper.importSources(
                [.file(path)], as: "User", options: .default, keepingRootRows: false, readAhead: second)
            #expect(report.records == StreamedDocumentTests.users)
            #expect(try mapper.rowCount("User") == StreamedDocumentTests.users)
            #expect(second.take(path) == nil, "the import took it")
        }
    }

    /// A file replaced after the read-ahead (a new file renamed over it) is imported as it was;
    /// one rewritten in place, whose mapped bytes may mix both versions, is refused, and nothing
    /// of it is stored.
    @Test func aFileChangedAfterTheReadAheadIsImportedAsItWasOrRefused() throws {
        try withDirectory { directory in
            let path = try Self.writeUsers(into: directory, login: "before")
            let readAhead = try #require(PayloadReadAhead(path: path, options: .default))
            readAhead.waitForRead()
            let next = directory + "/next"
            try FileManager.default.createDirectory(atPath: next, withIntermediateDirectories: false)
            #expect(rename(try Self.writeUsers(into: next, login: "after"), path) == 0)
            let mapper = try makeMapper()
            _ = try mapper.importSources([.file(path)], as: "User", options: .default, keepingRootRows: false, readAhead: readAhead)
            let logins = try mapper.storedRows("User", "login").map { $0[0] }
            #expect(logins.count == StreamedDocumentTests.users)
            #expect(logins.allSatisfy { if case .text(let login) = $0 { login.hasPrefix("before-") } else { false } })

            let rewritten = try #require(PayloadReadAhead(path: path, options: .default))
            rewritten.waitForRead()
            // File times move by the kernel's clock tick (up to 4 ms): the write comes a few later.
            Thread.sleep(forTimeInterval: 0.05)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.write(contentsOf: Data(#"[{"id": 1"#.utf8))
            try handle.close()
            let other = try makeMapper()
            #expect {
                try other.importSources([.file(path)], as: "User", options: .default, keepingRootRows: false, readAhead: rewritten)
            } throws: {
                ($0 as? ImportError)?.code == .unreadableFile
                    && ($0 as? ImportError)?.message == "cannot read '\(path)': the file changed while it was read"
            }
            #expect(try other.rowCount("User") == 0)
        }
    }

    /// The file's parse begins once it is read, before the import knows where its records are
    /// (`--root`): the import goes on with it and reads the same records, and the same errors,
    /// found by the first pass over the text (a string never closed) or by the walk after it.
    @Test func theParseBegunWithTheReadGoesOnUnderTheRecordsPath() throws {
        try withDirectory { directory in
            let path = directory + "/wrapped.json"
            func write(_ records: String) throws {
                try Data((#"{"meta": {"page": 1}, "data": {"users": ["# + records + "]}}").utf8).write(to: URL(fileURLWithPath: path))
            }
            func imported(readAhead: Bool) throws -> ImportReport {
                let options = ImportOptions(root: "data.users")
                let readAhead = readAhead ? PayloadReadAhead(path: path, options: options) : nil
                return try makeMapper().importSources([.file(path)], as: "User", options: options, keepingRootRows: false, readAhead: readAhead)
            }
            try write(StreamedDocumentTests.records())
            let readAhead = try #require(PayloadReadAhead(path: path, options: .default))
            let (input, headStart) = try #require(readAhead.take(path))
            let begun = try #require(headStart, "a file over the size parsed ahead")
            var ids: [Int64] = []
            _ = try begun.parser.forEachRecord(in: input, at: ["data", "users"], headStart: begun) { value, _ in
                var cursor = JSONValue.MemberCursor()
                guard case .value(let id) = value.lookup([Array("id".utf8)], cursor: &cursor) else { return }
                ids.append(try #require(id.exactInt64))
            }
            #expect(begun.isTaken)
            #expect(ids == Array(1...Int64(StreamedDocumentTests.users)))
            #expect(try imported(readAhead: true).records == StreamedDocumentTests.users)

            let records = StreamedDocumentTests.records()
            let unclosed = records.replacingOccurrences(of: #""user-30000""#, with: #""user-30000"#)
            let badValue = records.replacingOccurrences(of: #""id": 30001,"#, with: #""id": 30001x,"#)
            for (text, problem) in [(unclosed, "string is never closed"), (badValue, "invalid number")] {
                try write(text)
                let error = { (readAhead: Bool) -> String? in
                    do { _ = try imported(readAhead: readAhead) } catch { return "\(error)" }
                    return nil
                }
                let expected = try #require(error(false))
                #expect(expected.hasSuffix(problem), "\(expected)")
                #expect(error(true) == expected)
            }
        }
    }

    /// A parse begun and never taken (the store did not open, or the import reads another
    /// file) stops with the read-ahead: its parser parses on.
    @Test func aParseBegunAndNotTakenStops() throws {
        try withDirectory { directory in
            let path = try Self.writeUsers(into: directory)
            let readAhead = try #require(PayloadReadAhead(path: path, options: .default))
            let (input, headStart) = try #require(readAhead.take(path))
            let parser = try #require(headStart?.parser)
            _ = consume headStart
            var count = 0
            _ = try parser.forEachRecord(in: input, at: []) { _, _ in count += 1 }
            #expect(count == StreamedDocumentTests.users)
            // Dropped before it is taken, with its first pass under way.
            for _ in 0..<20 { _ = PayloadReadAhead(path: path, options: .default) }
        }
    }

    @Test func whatItDoesNotReadIsReadByTheImport() throws {
        try withDirectory { directory in
            #expect(PayloadReadAhead(path: "-", options: .default) == nil, "standard input")
            // Too small, too large, missing, a directory: nothing is read ahead, and the import
            // reads the file itself, with its own errors.
            let small = directory + "/small.json"
            try Data(#"[{"id": 1, "login": "a"}]"#.utf8).write(to: URL(fileURLWithPath: small))
            let large = try Self.writeUsers(into: directory)
            let cases: [(path: String, maxSize: Int)] = [
                (small, 1 << 30), (large, PayloadReadAhead.minimumSize), (directory + "/missing.json", 1 << 30), (directory, 1 << 30),
            ]
            for (path, maxSize) in cases {
                let readAhead = try #require(PayloadReadAhead(path: path, options: .init(maxPayloadSize: maxSize)))
                #expect(readAhead.take(path) == nil, "\(path)")
            }
            let mapper = try makeMapper()
            let tooLarge = try #require(PayloadReadAhead(path: large, options: .init(maxPayloadSize: PayloadReadAhead.minimumSize)))
            #expect {
                try mapper.importSources(
                    [.file(large)], as: "User", options: .init(maxPayloadSize: PayloadReadAhead.minimumSize), keepingRootRows: false,
                    readAhead: tooLarge)
            } throws: { ($0 as? ImportError)?.code == .tooLarge }
            let missing = try #require(PayloadReadAhead(path: directory + "/missing.json", options: .default))
            #expect {
                try mapper.importSources(
                    [.file(directory + "/missing.json")], as: "User", options: .default, keepingRootRows: false, readAhead: missing)
            } throws: { ($0 as? ImportError)?.code == .unreadableFile }
            #expect(try mapper.rowCount("User") == 0)
        }
    }
}
