/// Reading a record's converted values as Swift values, for validators.
extension RecordFields {
    /// The converted value of attribute `name` as a Swift value, by the same rules as reading
    /// records (`Date` for dates, `Decimal`, `UUID`, `URL`, arrays for `[T]`; a `json`
    /// attribute as its JSON text).
    ///
    /// ```swift
    /// let stars = try record.value("stars", as: Int.self) ?? 0
    /// ```
    ///
    /// - Parameters:
    ///   - name: an attribute name.
    ///   - type: the Swift type to decode.
    /// - Returns: the value, or `nil` when the record has no value for it (key missing or null).
    /// - Throws: `DecodingError` when the value does not decode as `V`.
    public func value<V: Decodable>(_ name: String, as type: V.Type = V.self) throws -> V? {
        guard let stored = self[name], stored != .null else { return nil }
        return try StoredValueDecoder(value: stored, type: nil, path: .root, key: IndexKey(name)).decode(type)
    }
}
