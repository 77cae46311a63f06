import Foundation

/// A problem with one record: where in the payload (a JSON path within the record) and what.
struct RecordError: Error {
    var path: [PathComponent]
    let message: String
    /// The store's error when a statement of the record failed. When the store itself failed
    /// (``StoreError/isStoreFailure``: the disk is full, the file read-only…) or SQLite rolled
    /// the transaction back, it is no error of the record: the import stops with it instead.
    var storeError: StoreError? = nil

    /// A constraint refused the record's statement (and the transaction is still there).
    var isConstraint: Bool { storeError?.code == .constraint }
}

/// One step of a JSON path.
enum PathComponent {
    case key(String)
    case index(Int)
}

extension [PathComponent] {
    /// JSONPath text of these steps after `prefix` (`$[17]`, `$.data.items[17]`, `$`).
    func rendered(after prefix: String) -> String {
        var text = prefix
        for component in self {
            switch component {
            case .index(let i): text += "[\(i)]"
            case .key(let k):
                let plain = !k.isEmpty && k.utf8.allSatisfy { c in
                    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
                } && !(k.utf8.first! >= 0x30 && k.utf8.first! <= 0x39)
                if plain {
                    text += ".\(k)"
                } else {
                    text += "['" + k.replacingOccurrences(of: "'", with: "\\'") + "']"
                }
            }
        }
        return text
    }
}
