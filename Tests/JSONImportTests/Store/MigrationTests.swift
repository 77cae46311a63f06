import Foundation
import Testing

@testable import JSONImport

/// Opening a store with changed mappings through the Swift API (SPEC 5): additions are migrated
/// in place with every value and link kept; removals and retypes are refused with each change
/// named and nothing applied, until `allowsDataLoss` / `Mapper.migrate(store:to:allowDataLoss:)`.
@Suite struct MigrationTests {
    private static let original = """
        entities:
          User:
            primaryKey: id
            attributes:
              id: int
              login: string
              score: double
            relationships:
              repos: { to: Repo, kind: many }
              boss:  { to: User, kind: one }
          Repo:
            primaryKey: id
            attributes:
              id: int
              name: string
            relationships:
              tags: { to: Tag, kind: many }
          Tag:
            primaryKey: name
            attributes:
              name: string
        """

    private static let payload = #"""
        [{"id": 1, "login": "ana", "score": 1.5, "boss": 2, "repos": [{"id": 10, "name": "kit", "tags": [{"name": "swift"}]}]},
         {"id": 2, "login": "bo"}]
        """#

    /// A store file holding ``payload`` under ``original``; removed with its directory.
    private final class StoreFile {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString)")
        var path: String { directory.appendingPathComponent("store.sqlite").path }

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let mapper = try Mapper(spec: MappingSpec.load(yaml: MigrationTests.original), store: .file(path))
            try mapper.importJSON(MigrationTests.payload, as: "User")
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Every row and link the store holds under ``original``: what "untouched" compares.
        func contents() throws -> [String: [String]] {
            try Mapper(spec: MappingSpec.load(yaml: MigrationTests.original), store: .file(path)).storedContent()
        }
    }

    private static func spec(_ edit: (String) -> String) throws -> MappingSpec {
        try MappingSpec.load(yaml: edit(original))
    }

    /// Removes Tag and Repo.tags, User.boss, and retypes User.score.
    private static func removals() throws -> MappingSpec {
        try spec {
            String($0[..<$0.range(of: "  Tag:")!.lowerBound])
                .replacingOccurrences(of: "      boss:  { to: User, kind: one }\n", with: "")
                .replacingOccurrences(of: "    relationships:\n      tags: { to: Tag, kind: many }\n", with: "")
                .replacingOccurrences(of: "score: double", with: "score: string")
        }
    }

    @Test func addedAttributesEntitiesAndRelationshipsAreMigratedInPlace() throws {
        let store = try StoreFile()
        let added = try Self.spec {
            $0.replacingOccurrences(of: "      score: double\n", with: "      score: double\n      bio: string\n")
                .replacingOccurrences(
                    of: "      boss:  { to: User, kind: one }\n",
                    with: "      boss:  { to: User, kind: one }\n      mentor: { to: User, kind: one }\n      teams: { to: Team, kind: many }\n")
                + "\n  Team:\n    primaryKey: id\n    attributes:\n      id: int\n"
        }
        let mapper = try Mapper(spec: added, store: .file(store.path))
        let users = try mapper.query("User").includingStubs().records()
        #expect(users.map { RecordValue.object($0).jsonText } == [
            #"{"id":1,"login":"ana","score":1.5,"bio":null,"repos":[10],"boss":2,"mentor":null,"teams":[]}"#,
            #"{"id":2,"login":"bo","score":null,"bio":null,"repos":[],"boss":null,"mentor":null,"teams":[]}"#,
        ])
        try mapper.importJSON(#"{"id": 2, "bio": "hi", "mentor": 1, "teams": [{"id": 7}]}"#, as: "User")
        let bo = try mapper.query("User").keys(text: ["2"]).includingStubs().records()
        #expect(bo.map { RecordValue.object($0).jsonText } == [
            #"{"id":2,"login":"bo","score":null,"bio":"hi","repos":[],"boss":null,"mentor":1,"teams":[7]}"#
        ])
        #expect(try Mapper.migrate(store: store.path, to: added).isEmpty)
    }

    @Test func removalsAndRetypesAreRefusedNamingEachChangeWithTheStoreUntouched() throws {
        let store = try StoreFile()
        let before = try store.contents()
        let removed = try Self.removals()
        #expect {
            _ = try Mapper(spec: removed, store: .file(store.path))
        } throws: { error in
            (error as? MigrationRefused)?.description == """
                the mappings need changes to the store that would lose data:
                  - remove table Repo_tags and its rows
                  - remove table Tag and its rows
                  - remove column User.boss and its values
                  - change the type of User.score from double to string
                run 'jsonimport migrate --allow-data-loss' to apply them
                """
        }
        let plan = try Mapper.migrate(store: store.path, to: removed)
        #expect(plan.losesData)
        #expect(plan.changes.filter(\.losesData).count == 4)
        #expect(try store.contents() == before)
    }

    @Test func bothStoresDescribeEveryChangeInTheSameWords() throws {
        let before = try MappingSpec.load(yaml: Self.original, file: "before.yml")
        var edited = Self.original.replacingOccurrences(of: "score: double", with: "score: string")
        edited = edited.replacingOccurrences(of: "login: string", with: "login: bool\n      joined: date\n      token: uuid")
        edited = edited.replacingOccurrences(of: "      tags: { to: Tag, kind: many }\n", with: "")
        let after = try MappingSpec.load(yaml: edited, file: "after.yml")
        func changes(_ dialect: SQLDialect) -> [String] {
            let plan = Migration.plan(
                from: StoreSchemaState(StorageSchema(spec: before, dialect: dialect)),
                to: StoreSchemaState(StorageSchema(spec: after, dialect: dialect)))
            return plan.changes.map { "\($0.losesData ? "!" : "+") \($0.description)" }
        }
        let sqlite = changes(.sqlite)
        #expect(sqlite.contains("! change the type of User.score from double to string"), "\(sqlite)")
        #expect(sqlite.contains("! change the type of User.login from string to bool"), "\(sqlite)")
        #expect(changes(.postgres) == sqlite)
    }

    /// A store recorded before the attribute types were finds only the type changes its column
    /// types show, converting from the type its column stores; it records the types next time.
    @Test func aStoreRecordedBeforeAttributeTypesFindsTheChangesItsColumnsShow() throws {
        let before = try MappingSpec.load(yaml: Self.original, file: "before.yml")
        let edited = Self.original.replacingOccurrences(of: "score: double", with: "score: string")
            .replacingOccurrences(of: "login: string", with: "login: url")
        let after = try MappingSpec.load(yaml: edited, file: "after.yml")
        for dialect in SQLDialect.allCases {
            var recorded = StoreSchemaState(StorageSchema(spec: before, dialect: dialect))
            recorded.types = nil
            let wanted = StoreSchemaState(StorageSchema(spec: after, dialect: dialect))
            let plan = Migration.plan(from: recorded, to: wanted)
            #expect(plan.changes.map(\.description) == ["change the type of User.score from double to string"], "\(dialect)")
            #expect(plan.conversions.map { "\($0.column): \($0.from) to \($0.to)" } == ["score: double to string"], "\(dialect)")
            #expect(Migration.plan(from: recorded, to: StoreSchemaState(StorageSchema(spec: before, dialect: dialect))).isEmpty)
            #expect(wanted.types?["User"]?["login"] == "url")
        }
    }

    /// A store recorded before the types were cannot tell what its `REAL` or `INTEGER` columns
    /// held on SQLite (`date` or `double`, `bool` or `int`), so a retype there is refused before
    /// anything is applied, saying how to record the types; opened once with its own mappings,
    /// it converts them.
    @Test func aRetypeOfAStoreRecordedBeforeAttributeTypesWaitsForThemToBeRecorded() throws {
        let store = try StoreFile()
        let before = try store.contents()
        let mapper = try Mapper(spec: MappingSpec.load(yaml: Self.original), store: .file(store.path))
        try mapper.store.withLock { shared in
            try shared.engine.transaction {
                var state = try #require(try shared.engine.recordedState())
                state.types = nil
                try shared.engine.run(
                    "UPDATE \(quote(StorageSchema.metadataTable)) SET \"value\" = ? WHERE \"key\" = 'schema'", [.text(state.json)])
            }
        }
        let retyped = try Self.spec { $0.replacingOccurrences(of: "score: double", with: "score: string") }
        #expect {
            try Mapper.migrate(store: store.path, to: retyped, allowDataLoss: true)
        } throws: { error in
            (error as? StoreError)?.message == "the type of User.score cannot change: the store does not record its attributes' types "
                + "(an earlier version made it); open it once with the mappings it was made with, which records them, then migrate"
        }
        // Opened with its own mappings, it records the types, and nothing else changed.
        #expect(try Mapper.migrate(store: store.path, to: MappingSpec.load(yaml: Self.original)).isEmpty)
        #expect(try store.contents() == before)
        #expect(try Mapper.migrate(store: store.path, to: retyped, allowDataLoss: true).changes.count == 1)
        let users = try Mapper(spec: retyped, store: .file(store.path)).query("User").records()
        #expect(users.first.map { RecordValue.object($0).jsonText }?.contains(#""score":"1.5""#) == true)
    }

    @Test func allowingDataLossAppliesEveryChangeAndKeepsTheRest() throws {
        let store = try StoreFile()
        let removed = try Self.removals()
        let plan = try Mapper.migrate(store: store.path, to: removed, allowDataLoss: true)
        #expect(plan.changes.count == 4)
        #expect(try Mapper.migrate(store: store.path, to: removed).isEmpty)
        let mapper = try Mapper(spec: removed, store: .file(store.path))
        #expect(try mapper.query("User").includingStubs().records().map { RecordValue.object($0).jsonText } == [
            #"{"id":1,"login":"ana","score":"1.5","repos":[10]}"#, #"{"id":2,"login":"bo","score":null,"repos":[]}"#,
        ])
        #expect(try mapper.integrityViolations().isEmpty)
    }

    @Test func theConfigurationCanAllowDataLossOnOpen() throws {
        let store = try StoreFile()
        let removed = try Self.removals()
        let mapper = try Mapper(
            spec: removed, store: .file(store.path), configuration: .init(allowsDataLoss: true))
        #expect(try mapper.statistics().json == #"{"entities":{"User":2,"Repo":1},"stubs":{"User":0,"Repo":0},"links":{"User.repos":1}}"#)
    }
}
