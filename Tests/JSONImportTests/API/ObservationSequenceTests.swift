import Foundation
import Testing
@testable import JSONImport

/// Observation as sequences: a query's values as commits change them, committed key changes,
/// and tokens that stop when released.
@Suite struct ObservationSequenceTests {
    struct Note: Codable, Sendable, Equatable, ImportableEntity {
        var id: Int
        var text: String
        var tags: [Tag]
    }

    struct Tag: Codable, Sendable, Equatable, ImportableEntity {
        var id: Int
        var name: String
    }

    struct Log: Codable, Sendable, Equatable, ImportableEntity {
        var id: Int
    }

    static let yaml = """
        entities:
          Note:
            primaryKey: id
            attributes: { id: int, text: string }
            relationships:
              tags: { to: Tag, kind: many }
          Tag:
            primaryKey: id
            attributes: { id: int, name: string }
          Log:
            primaryKey: id
            attributes: { id: int }
        """

    @Test func aQueryYieldsItsValuesThenAfterEachCommitThatChangesThem() async throws {
        let mapper = try makeMapper(Self.yaml)
        try await mapper.save(Note(id: 1, text: "a", tags: [Tag(id: 7, name: "x")]))
        var values = mapper.observe(mapper.query(Note.self).order(by: "id")).makeAsyncIterator()
        #expect(try await values.next()?.map(\.text) == ["a"])

        try await mapper.save(Log(id: 1))  // no Note, nor anything a note reaches
        try await mapper.save(Note(id: 2, text: "b", tags: []))
        #expect(try await values.next()?.map(\.text) == ["a", "b"])

        // A change to a row the notes reach (a tag) changes their values.
        try await mapper.save(Tag(id: 7, name: "y"))
        #expect(try await values.next()?.first?.tags.map(\.name) == ["y"])
    }

    @Test func endingTheLoopEndsTheObservation() async throws {
        let mapper = try makeMapper(Self.yaml)
        for try await notes in mapper.observe(mapper.query(Note.self)) {
            #expect(notes.isEmpty)
            break
        }
        // The observer goes once the sequence is gone.
        let deadline = Date().addingTimeInterval(5)
        while !mapper.store.observers.isEmpty && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(mapper.store.observers.isEmpty)
    }

    @Test func cancellingTheTaskEndsTheObservation() async throws {
        let mapper = try makeMapper(Self.yaml)
        let (yields, yielded) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            var count = 0
            for try await _ in mapper.observe(mapper.query(Note.self)) {
                count += 1
                yielded.yield()
            }
            return count
        }
        var first = yields.makeAsyncIterator()
        await first.next()
        task.cancel()
        #expect(try await task.value == 1)
    }

    @Test func commitsOfAnotherMapperOnTheFileAreSeen() async throws {
        try await withTemporaryStoreAsync { path in
            let watching = try makeFileMapper(path, yaml: Self.yaml)
            let other = try makeFileMapper(path, yaml: Self.yaml)
            var values = watching.observe(watching.query(Note.self)).makeAsyncIterator()
            #expect(try await values.next()?.isEmpty == true)
            try await other.save(Note(id: 3, text: "from elsewhere", tags: []))
            #expect(try await values.next()?.map(\.text) == ["from elsewhere"])
        }
    }

    @Test func changesYieldCommittedKeys() async throws {
        let mapper = try makeMapper(Self.yaml)
        var changes = try mapper.changes(to: Note.self).makeAsyncIterator()
        try await mapper.save(Log(id: 1))
        try await mapper.save(Note(id: 4, text: "d", tags: []))
        let first = await changes.next()
        #expect(first?["Note"]?.inserted == [.int(4)])
        #expect(first?["Log"] == nil)
        #expect(throws: QueryError.self) { try mapper.changes(to: Int.self) }
    }

    @Test func aReleasedTokenStopsItsObserver() throws {
        let mapper = try makeMapper(Self.yaml)
        let recorder = ChangeRecorder()
        var token: ChangeObservation? = mapper.observeChanges(recorder.record)
        try mapper.save(Log(id: 1))
        #expect(recorder.all.count == 1)
        withExtendedLifetime(token) {}
        token = nil
        try mapper.save(Log(id: 2))
        #expect(recorder.all.count == 1)
        #expect(mapper.store.observers.isEmpty)
    }
}
