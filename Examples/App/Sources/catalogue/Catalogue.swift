// A small app over JSONImport, in Swift 6 mode: it imports a music catalogue from async code,
// an actor and plain threads, observes it, cancels an import and handles the library's errors.
// Every step checks what it gets; the program exits with status 1 at the first surprise.
import Dispatch
import Foundation
import JSONImport

// Artist, Album and Label are generated from Mappings/music.yml at build time
// (`jsonimport codegen`, through the JSONImportCodegen plugin): their Codable form is the
// API's JSON, and the mapper reads and saves them in that form.

func check(_ condition: Bool, _ what: String) {
    guard condition else {
        print("FAILED: \(what)")
        exit(1)
    }
    print("ok: \(what)")
}

/// The app's data layer: one mapper, used from the actor's methods.
actor Catalogue {
    let mapper: Mapper

    init() throws {
        let mappings = Bundle.module.url(forResource: "Mappings", withExtension: nil)!
        mapper = try Mapper(mappings: mappings.path, store: .inMemory)
    }

    func load(_ json: String) async throws -> [Artist] {
        try await mapper.map(Artist.self, json)
    }

    func topArtists() async throws -> [Artist] {
        try await mapper.query(Artist.self).where("monthlyListeners > 1000").order(by: "name").all()
    }
}

@main
struct CatalogueApp {
    static func main() async throws {
        let payload = """
            [{"id": 1, "name": "Nina", "monthly_listeners": 5200, "label": {"id": 10, "name": "Blue Note"},
              "albums": [{"id": 100, "title": "Pastel", "released_on": "2021-04-02"}]},
             {"id": 2, "name": "Ola", "monthly_listeners": 300, "albums": []}]
            """

        let catalogue = try Catalogue()
        let mapper = catalogue.mapper

        // async/await from an actor.
        let artists = try await catalogue.load(payload)
        check(artists.map(\.name) == ["Nina", "Ola"] && artists[0].albums?.first?.record?.title == "Pastel", "map from an actor")
        // Every property round-trips, whatever its JSON key: monthly_listeners, released_on
        // (a date in its own format), the nested label.
        check(artists[0].monthlyListeners == 5200 && artists[0].label?.record?.name == "Blue Note", "generated types read back")
        let released = artists[0].albums?.first?.record?.releasedOn
        check(released == DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(identifier: "UTC"), year: 2021, month: 4, day: 2).date, "a date in its pattern")
        check(try await mapper.find(Artist.self, id: 1) == artists[0], "find gives what map gave")
        check(try JSONDecoder().decode([Artist].self, from: Data(payload.utf8))[0].monthlyListeners == 5200, "JSONDecoder reads the payload")
        // The type table's conversions: numbers sent as strings.
        let lenient = try JSONDecoder().decode(Artist.self, from: Data(#"{"id": "8", "name": "Quin", "monthly_listeners": "12"}"#.utf8))
        check(lenient.id == 8 && lenient.monthlyListeners == 12, "JSONDecoder converts as the mappings do")
        var renamed = artists[1]
        renamed.monthlyListeners = 301
        try await mapper.save(renamed)
        check(try await mapper.find(Artist.self, id: 2)?.monthlyListeners == 301, "save keeps a property whose key differs")
        check(try await catalogue.topArtists().map(\.id) == [1], "a query from an actor")

        // Observation as a sequence: the values now, then after a commit that changes them.
        let (observed, seen) = AsyncStream.makeStream(of: [Artist].self)
        let observer = Task {
            for try await values in mapper.observe(mapper.query(Artist.self).order(by: "id")) { seen.yield(values) }
        }
        var updates = observed.makeAsyncIterator()
        check(await updates.next()?.count == 2, "observe yields the current values")
        try await mapper.save(Artist(id: 3, name: "Pia", monthlyListeners: 9000, label: nil, albums: nil))
        check(await updates.next()?.map(\.id) == [1, 2, 3], "observe yields after a save")
        observer.cancel()

        // Committed key changes.
        var changes = try mapper.changes(to: Artist.self).makeAsyncIterator()
        try await mapper.destroy(Artist.self, id: 2)
        check(await changes.next()?["Artist"]?.deleted == [.int(2)], "changes(to:) yields the deleted key")

        // Plain threads, with the synchronous API.
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            do {
                try mapper.save(Artist(id: 10 + thread, name: "t\(thread)", monthlyListeners: nil, label: nil, albums: nil))
            } catch {
                print("FAILED: save from thread \(thread): \(error)")
                exit(1)
            }
        }
        check(try await mapper.count(Artist.self) == 6, "saves from four threads")

        // Cancellation: a cancelled task's import leaves the store as it was.
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await mapper.map(Artist.self, #"[{"id": 50, "name": "never"}]"#)
        }
        check(await (try? cancelled.value) == nil, "a cancelled import throws")
        check(try await mapper.find(Artist.self, id: 50) == nil, "and keeps nothing")

        // Progress as a sequence.
        var finished: ImportReport?
        for try await event in mapper.importing([.data(Data(payload.utf8), name: "catalogue.json")], as: "Artist") {
            if case .finished(let report) = event { finished = report }
        }
        check(finished?.records == 2, "importing reports the records")

        // Errors: a stable code, the message as localizedDescription, and where.
        do {
            try await mapper.importData(Data(#"[{"id": 7, "name": }]"#.utf8), as: "Artist")
            check(false, "invalid JSON throws")
        } catch let error as ImportError where error.code == .invalidJSON {
            check(error.localizedDescription == error.message && error.location.line == 1, "invalid JSON: \(error.localizedDescription)")
        }
        do {
            _ = try await mapper.query(Artist.self).where("popularity > 3").all()
            check(false, "an unknown field throws")
        } catch let error as any JSONImportError {
            check(error.codeName == "invalidFilter", "an unknown field: \(error.codeName): \(error.localizedDescription)")
        }
        print("catalogue: all checks passed")
    }
}
