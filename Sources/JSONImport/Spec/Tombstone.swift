/// A tombstone rule of an entity (SPEC 1.1 `deleteWhen`, 2.2 step 0): a record whose value at
/// `key` equals `value` deletes the row with its key instead of being imported.
///
/// ```yaml
/// Issue:
///   deleteWhen: { key: deleted, equals: true }
/// ```
public struct Tombstone: Sendable, Hashable {
    /// Where the marker is read in a record.
    public let key: JSONKeyPath
    /// The JSON value that marks a tombstone, compared as JSON values (`true` is not `"true"`).
    package let value: LiteralValue

    package init(key: JSONKeyPath, value: LiteralValue) {
        self.key = key
        self.value = value
    }

    /// The marker value as JSON text: `true`, `"deleted"`, `0`.
    public var valueText: String { ValueConversion.jsonText(value) }
}
