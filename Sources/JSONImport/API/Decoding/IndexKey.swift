/// A coding key for a position in an array, or a name. A position's `stringValue` is made only
/// when asked for, as decoding a to-many relationship makes a key per element.
struct IndexKey: CodingKey {
    private let name: String?
    let intValue: Int?

    var stringValue: String { name ?? "Index \(intValue!)" }

    init(_ index: Int) {
        self.name = nil
        self.intValue = index
    }

    init(_ name: String) {
        self.name = name
        self.intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}
