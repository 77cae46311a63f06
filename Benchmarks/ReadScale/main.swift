// Times reading records back with nested values (the decoder's batched reads) against the
// import of the same payload. Artists nest a label (to-one) and albums (to-many), albums a
// genre (to-one, shared):
//
//     swift run -c release read-scale [ARTISTS] [RUNS]
//
// Each run, from fresh stores: the plain import (`importData`), the same payload through
// `map(Artist.self, json)` (import, then decode what it imported) and through its async form
// (`try await`), and `all(Artist.self)` on the populated store. Prints the medians, map's
// ratio to the import, the async map's to the synchronous one, and all's rate.
import Foundation
import JSONImport

let arguments = CommandLine.arguments.dropFirst().map { $0 }
let artistCount = arguments.count > 0 ? Int(arguments[0]) ?? 20_000 : 20_000
let runs = arguments.count > 1 ? Int(arguments[1]) ?? 3 : 3
let albumsPerArtist = 4

let mappings = """
    entities:
      Artist:
        primaryKey: id
        attributes: { id: int, name: string, country: string, listeners: int }
        relationships:
          label: { to: Label, kind: one }
          albums: { to: Album, kind: many }
      Label:
        primaryKey: id
        attributes: { id: int, name: string }
      Album:
        primaryKey: id
        attributes: { id: int, title: string, year: int }
        relationships:
          genre: { to: Genre, kind: one }
      Genre:
        primaryKey: id
        attributes: { id: int, name: string }
    """

struct Genre: Codable, Sendable { let id: Int; let name: String }
struct Album: Codable, Sendable { let id: Int; let title: String; let year: Int; let genre: Genre? }
struct Label: Codable, Sendable { let id: Int; let name: String }
struct Artist: Codable, Sendable {
    let id: Int
    let name: String
    let country: String
    let listeners: Int
    let label: Label?
    let albums: [Album]
}

let artists = (1...artistCount).map { i in
    Artist(
        id: i, name: "Artist \(i)", country: ["SE", "US", "JP", "BR"][i % 4], listeners: i * 37 % 100_000,
        label: Label(id: i % 500 + 1, name: "Label \(i % 500 + 1)"),
        albums: (0..<albumsPerArtist).map { a in
            let id = i * albumsPerArtist + a
            return Album(id: id, title: "Album \(id)", year: 1960 + id % 60, genre: Genre(id: id % 40 + 1, name: "Genre \(id % 40 + 1)"))
        })
}
let payload = try JSONEncoder().encode(artists)
let spec = try MappingSpec.load(yaml: mappings)
let directory = NSTemporaryDirectory() + "read-scale-\(getpid())"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }

func freshMapper(_ name: String) throws -> Mapper {
    let path = "\(directory)/\(name).sqlite"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    return try Mapper(spec: spec, store: .file(path))
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// The async `map`, called from an async function (top-level code would pick the synchronous
/// overload).
func asyncMapSeconds(_ mapper: Mapper) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let values = try await mapper.map(Artist.self, payload)
    precondition(values.count == artistCount)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

var importTimes: [Double] = []
var mapTimes: [Double] = []
var asyncMapTimes: [Double] = []
var allTimes: [Double] = []
for _ in 0..<runs {
    let imported = try freshMapper("import")
    importTimes.append(try seconds { _ = try imported.importData(payload, as: "Artist") })
    let mapped = try freshMapper("map")
    mapTimes.append(try seconds {
        let values = try mapped.map(Artist.self, payload)
        precondition(values.count == artistCount && values[0].albums.count == albumsPerArtist)
    })
    asyncMapTimes.append(try await asyncMapSeconds(try freshMapper("map-async")))
    allTimes.append(try seconds {
        let values = try imported.all(Artist.self)
        precondition(values.count == artistCount && values.last!.albums.last!.genre != nil)
    })
}

let nested = artistCount * (1 + 1 + albumsPerArtist * 2)
print("read-scale: \(artistCount) artists, \(nested) records with the nested ones, \(payload.count / 1000) KB; median of \(runs)")
print(String(format: "  import          %7.3f s", median(importTimes)))
print(String(format: "  map             %7.3f s   %.2f× the import", median(mapTimes), median(mapTimes) / median(importTimes)))
print(String(format: "  map, async     %7.3f s   %.2f× the synchronous map", median(asyncMapTimes), median(asyncMapTimes) / median(mapTimes)))
print(String(format: "  all             %7.3f s   %.0f artists/s (%.0f records/s with the nested ones)",
    median(allTimes), Double(artistCount) / median(allTimes), Double(nested) / median(allTimes)))
