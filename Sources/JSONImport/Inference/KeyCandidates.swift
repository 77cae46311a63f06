/// Which key of a record identifies it: the draft's primary keys.
///
/// A key qualifies when every object has it, never `null`, always a scalar that can be a key
/// (`int`, `uuid` or `string`: no fractions, no Booleans). Among those the first by name wins:
/// `id`; then the entity's name followed by `id` (`user_id` in `User`); `uuid`, `guid`; `sha`;
/// `key`, `slug`. Names compare by their words, so `ID`, `_id` and `Id` are all `id`.
enum KeyCandidates {
    /// The JSON key of the attribute that identifies records of `entity`, or `nil` when none
    /// qualifies.
    ///
    /// - Parameters:
    ///   - fields: every key of the records with what it held.
    ///   - count: how many records there were.
    ///   - entity: the entity's name.
    static func key(of fields: [(key: String, values: ValueCounts)], count: Int, entity: String) -> String? {
        var best: (key: String, rank: Int)?
        for field in fields {
            guard let rank = rank(of: field.key, entity: entity), rank < (best?.rank ?? .max),
                field.values.present == count, field.values.nulls == 0, field.values.structure == .scalar,
                field.values.scalars.keyType != nil
            else { continue }
            best = (field.key, rank)
        }
        return best?.key
    }

    /// `true` when `key` has a name that would make it a primary key, whatever its values.
    static func isCandidate(_ key: String, entity: String) -> Bool {
        rank(of: key, entity: entity) != nil
    }

    /// `true` when `key` is `id` or the entity's name followed by `id` (whatever its values):
    /// an object holding one is a record, not a wrapper around a list of them.
    static func isIDName(_ key: String, entity: String) -> Bool {
        (rank(of: key, entity: entity) ?? .max) <= 1
    }

    /// The preference of `key` as an identifier, lower first; `nil` for any other name.
    private static func rank(of key: String, entity: String) -> Int? {
        let name = DraftNames.propertyName(for: key).lowercased()
        switch name {
        case "id": return 0
        case entity.lowercased() + "id": return 1
        case "uuid", "guid": return 2
        case "sha": return 3
        case "key", "slug": return 4
        default: return nil
        }
    }
}
