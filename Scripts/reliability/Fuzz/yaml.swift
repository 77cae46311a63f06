// libFuzzer target: mapping files. Any bytes go through the YAML reader and the mapping loader;
// they must load or be refused with diagnostics, never crash, hang or grow without bound.
// Built with the library's sources into one module by Scripts/reliability/fuzz.sh.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMappings(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) else {
        return -1  // the loader refuses text that is not UTF-8 before parsing it
    }
    do {
        let spec = try MappingSpec.load(files: [("fuzz.yml", text)])
        // A spec that loads must also give storage and import plans.
        _ = StorageSchema(spec: spec).statements
        _ = ImportPlan(spec: spec)
    } catch {
        _ = error.description
    }
    return 0
}
