// The in-memory mapper the payload and filter targets share: the mappings of FUZZ_MAPPINGS
// (default Mappings/types.yml) with the records of FUZZ_SEED imported, set up once per process.
import Foundation

let seededMapper: Mapper = {
    let mappings = ProcessInfo.processInfo.environment["FUZZ_MAPPINGS"] ?? "Mappings/types.yml"
    do {
        let mapper = try Mapper(spec: MappingSpec.load(from: mappings), store: .inMemory)
        if let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"] {
            _ = try mapper.importFile(seed, as: "Item")
        }
        return mapper
    } catch {
        fatalError("cannot set up the fuzz target: \(error)")
    }
}()
