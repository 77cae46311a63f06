/// A coding key for a position in an array, or a name. A position's `stringValue` is made only
/// when asked for, as decoding a to-many relationship makes a key per element; and the key fits
/// in an existential's inline buffer, so handing it over as `any CodingKey` allocates nothing.
struct IndexKey: CodingKey {
    private enum Kind {
        case index(Int)
        case name(String)
    }

    private let kind: Kind

    var stringValue: String {
        switch kind {
        case .index(let index): "Index \(index)"
        case .name(let name): name
        }
    }

    var intValue: Int? {
        if case .index(let index) = kind { return index }
        return nil
    }

    init(_ index: Int) { kind = .index(index) }
    init(_ name: String) { kind = .name(name) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}
