// libFuzzer target: filter expressions (`--where`). Any text is parsed, checked against the
// mappings and run as a query; it must select rows or be refused, never crash or reach SQLite
// as anything but bound values. Built with the library's sources by Scripts/reliability/fuzz.sh.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilters(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    guard let text = String(validating: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self) else {
        return -1
    }
    do {
        _ = try seededMapper.records(RecordQuery(entity: "Item", filter: text))
    } catch let error as QueryError {
        _ = error.message
    } catch let error as StoreError {
        fatalError("a filter reached SQLite as an error: \(error)")
    } catch {
        fatalError("a query failed with an unexpected error: \(error)")
    }
    return 0
}
