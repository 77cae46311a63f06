import Foundation
import Testing

/// The hostile input corpus (`Fixtures/Hostile/manifest.json`, written by
/// `Scripts/reliability/make_hostile_corpus.py`): malformed JSON and YAML, type confusion for
/// every attribute type, out-of-range numbers, huge and deeply nested inputs, names and filters
/// that try to reach SQL, limits. Each case runs the CLI against a copy of a seeded store and
/// must end as the manifest says, by an exit (never a signal), with an `error:` line holding the
/// expected text, no control character but line feed and tab on stderr (nor on stdout for a
/// `terminal` case), the store unchanged, within ``timeLimit`` seconds. Against PostgreSQL each
/// case's schema starts as a copy of the seeded one.
@Suite struct HostileInputTests {
    /// Seconds a case may take: the slowest take about 3 in a debug build against SQLite, about
    /// four times as long against PostgreSQL. Sanitizers slow everything down several times;
    /// `Scripts/reliability/sanitizers.sh` sets `HOSTILE_TIME_LIMIT` accordingly.
    static let timeLimit = ProcessInfo.processInfo.environment["HOSTILE_TIME_LIMIT"].flatMap(Double.init)
        ?? (TestStore.isSQLite ? 15 : 45)

    @Test func theCorpusRefusesAtLeastTwoHundredCases() {
        let refused = HostileCorpus.cases.filter { $0.exit != 0 }
        #expect(refused.count >= 200)
        #expect(refused.allSatisfy { $0.stderr != nil }, "every refused case names the message it expects")
    }

    @Test(arguments: HostileCorpus.cases)
    func hostileInputIsRefusedCleanly(_ hostile: HostileCase) throws {
        let directory = try TemporaryDirectory()
        let seed = try HostileCorpus.seed.get()
        let store = try HostileCorpus.store(for: hostile, in: directory, seed: seed)
        var generated: String?
        if let spec = hostile.generate { generated = try spec.make(in: directory) }
        let arguments = hostile.args.flatMap { argument in
            if argument == "{arguments}" { return hostile.arguments?.expanded ?? [] }
            return [argument.hasPrefix("{generated") ? generated ?? argument : argument]
        }
        let mappings = hostile.mappings.map { $0 == "{generated}" ? generated ?? $0 : $0 } ?? HostileCorpus.mappings

        let began = Date()
        let result = try CLI.run(
            ["--mappings", mappings, "--store", store] + arguments, in: HostileCorpus.directory, timeout: 60)
        let elapsed = Date().timeIntervalSince(began)

        #expect(result.signal == nil, "\(result)")
        #expect(result.exitCode == hostile.exit, "\(result)")
        if hostile.exit != 0 {
            #expect(result.stderr.hasPrefix("error: "), "\(result)")
            if let expected = hostile.stderr {
                #expect(result.stderr.contains(expected), "\(result)")
            }
        }
        #expect(!Self.hasControlCharacters(result.stderr), "\(result)")
        if hostile.terminal == true { #expect(!Self.hasControlCharacters(result.stdout), "\(result)") }
        #expect(try HostileCorpus.isUnchanged(store, from: seed), "the store changed")
        #expect(elapsed < Self.timeLimit, "took \(elapsed) s")
    }

    /// Whether `text` holds a control character (C0, DEL, C1) other than a line feed or tab.
    static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
    }
}

/// One case of the manifest.
struct HostileCase: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    /// Arguments after `--mappings M --store S`; `{generated}` is the generated file's path,
    /// `{generated-text}` its text.
    let args: [String]
    let exit: Int32
    /// The text stderr must hold.
    let stderr: String?
    /// Mappings other than `Mappings/types.yml`, relative to the corpus folder.
    let mappings: String?
    let generate: Generated?
    /// What `{arguments}` stands for.
    let arguments: Arguments?
    /// Whether stdout is text for a terminal, free of control characters.
    let terminal: Bool?

    var testDescription: String { name }

    /// Many arguments: `template` with `{n}` counted up from `first`, `count` of them.
    struct Arguments: Decodable, Sendable {
        let template: String
        let first: Int
        let count: Int

        var expanded: [String] {
            (first..<first + count).map { template.replacingOccurrences(of: "{n}", with: String($0)) }
        }
    }

    /// An input written at test time: its parts, each repeated `count` times, one after another.
    struct Generated: Decodable, Sendable {
        /// A file name, or `nil` when the text is passed as an argument.
        let file: String?
        let parts: [Part]

        struct Part: Decodable, Sendable {
            let text: String
            let count: Int

            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                text = try container.decode(String.self)
                count = try container.decode(Int.self)
            }
        }

        /// Writes the file into `directory` and returns its path, or returns the text.
        func make(in directory: TemporaryDirectory) throws -> String {
            guard let file else { return parts.map { String(repeating: $0.text, count: $0.count) }.joined() }
            let path = directory.path(file)
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            for part in parts {
                let unit = Data(part.text.utf8)
                let perChunk = max(1, (1 << 20) / unit.count)
                let chunk = Self.repeated(unit, min(perChunk, part.count))
                var remaining = part.count
                while remaining >= perChunk {
                    try handle.write(contentsOf: chunk)
                    remaining -= perChunk
                }
                if remaining > 0 { try handle.write(contentsOf: Self.repeated(unit, remaining)) }
            }
            return path
        }

        private static func repeated(_ unit: Data, _ count: Int) -> Data {
            if unit.count == 1 { return Data(repeating: unit[unit.startIndex], count: count) }
            var data = Data(capacity: unit.count * count)
            for _ in 0..<count { data.append(unit) }
            return data
        }
    }
}

/// The corpus on disk and the store every case starts from.
enum HostileCorpus {
    /// The corpus folder in the test bundle; cases run in it, so their paths are relative.
    static let directory: URL = {
        guard let resources = Bundle.module.resourceURL else { fatalError("the test bundle has no resources") }
        return resources.appendingPathComponent("Fixtures/Hostile")
    }()

    static var mappings: String { directory.appendingPathComponent("Mappings/types.yml").path }

    static let cases: [HostileCase] = {
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent("manifest.json"))
            return try JSONDecoder().decode([HostileCase].self, from: data)
        } catch {
            fatalError("cannot read the hostile corpus manifest: \(error)")
        }
    }()

    /// The store every case starts from, holding `seed.json`, or why it could not be made.
    static let seed: Result<Seed, SubprocessFailure> = {
        do {
            return .success(try Seed())
        } catch {
            return .failure(SubprocessFailure("cannot seed the store: \(error)"))
        }
    }()

    /// A store made once by the CLI from `seed.json`.
    struct Seed {
        /// Its ``TestStore/copy(_:)``: a SQLite file's bytes, its WAL checkpointed into it when
        /// the CLI closed it.
        let copy: Data
        /// Its ``TestStore/content(_:)``.
        let content: String

        fileprivate init() throws {
            let scratch = try TemporaryDirectory()
            let store = scratch.path("seed.sqlite")
            let result = try CLI.run(["--mappings", mappings, "--store", store, "import", "Item", "seed.json"], in: directory)
            guard result.exitCode == 0 else { throw SubprocessFailure("the import failed: \(result)") }
            guard let copy = try TestStore.copy(store) else { throw SubprocessFailure("the import made no store: \(result)") }
            self.copy = copy
            content = try TestStore.content(store)
            // Schemas are made faster many at a time than one by one.
            if !TestStore.isSQLite { try TestStore.restore(copy, to: cases.map(postgresStore)) }
        }
    }

    /// Where `hostile` runs: a store holding what the seed holds, made for it: a copy of the seed
    /// file in `directory`, or the PostgreSQL schema made for each case with the seed.
    static func store(for hostile: HostileCase, in directory: TemporaryDirectory, seed: Seed) throws -> String {
        guard TestStore.isSQLite else { return postgresStore(hostile) }
        let store = directory.path("store.sqlite")
        try TestStore.restore(seed.copy, to: [store])
        return store
    }

    /// The path whose PostgreSQL schema (see ``TestStore/argument(_:in:)``) `hostile` runs on.
    private static func postgresStore(_ hostile: HostileCase) -> String {
        "/jsonimport-hostile/\(hostile.name)/store.sqlite"
    }

    /// `true` when `store` holds what the seed holds: a SQLite file of the same bytes with no WAL
    /// left, or else the same ``TestStore/content(_:)`` (for SQLite, checked by the sqlite3 shell
    /// with `integrity_check`).
    static func isUnchanged(_ store: String, from seed: Seed) throws -> Bool {
        if TestStore.isSQLite {
            let wal = (try? FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int) ?? 0
            if wal == 0, FileManager.default.contents(atPath: store) == seed.copy { return true }
        }
        return try TestStore.content(store) == seed.content
    }
}
