/// A primary-key value, as the identity cache keys rows. Text keys are equal when they hold
/// the same code points, as the stores compare them (see ``StoredValue``).
enum RowKey: Hashable {
    case integer(Int64)
    case text(String)
    case composite([StoredValue])

    static func == (a: RowKey, b: RowKey) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x == y
        case (.text(let x), .text(let y)): return x.hasSameCodePoints(as: y)
        case (.composite(let x), .composite(let y)): return x == y
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let v):
            hasher.combine(0 as UInt8)
            hasher.combine(v)
        case .text(let v):
            hasher.combine(1 as UInt8)
            v.hashCodePoints(into: &hasher)
        case .composite(let values):
            hasher.combine(2 as UInt8)
            hasher.combine(values)
        }
    }

    init(_ values: [Value]) {
        if values.count == 1 {
            switch values[0] {
            case .integer(let v): self = .integer(v)
            case .bytes, .text: self = .text(values[0].string!)
            default: self = .composite([values[0].stored])
            }
        } else {
            self = .composite(values.map(\.stored))
        }
    }
}
