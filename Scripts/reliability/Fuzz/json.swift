// libFuzzer target: payloads. Any bytes are imported (dry run, so the store stays as seeded) as
// a JSON document and as JSON Lines, with a mapping that has every attribute type and every kind
// of relationship; they must import or be refused with an error, never crash or hang.
// Built with the library's sources into one module by Scripts/reliability/fuzz.sh.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayloads(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    // The error policy follows the input's length, so that both are fuzzed at half the cost.
    let onError: ImportOptions.ErrorPolicy = count % 2 == 0 ? .abort : .skip
    for format in [PayloadFormat.json, .jsonl] {
        let options = ImportOptions(format: format, prune: format == .jsonl, onError: onError, dryRun: true, explain: true)
        do {
            _ = try seededMapper.importData(data, as: "Item", options: options).json(explain: true)
        } catch let error as ImportError {
            _ = error.message
        } catch {
            fatalError("an import failed with an error other than ImportError: \(error)")
        }
    }
    return 0
}
