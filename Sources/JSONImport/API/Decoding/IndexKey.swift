/// A coding key for a position in an array, or a name.
struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }

    init(_ name: String) {
        self.stringValue = name
        self.intValue = nil
    }

    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(intValue) }
}
