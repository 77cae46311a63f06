/// Finds the list of records inside a wrapper object, as APIs send pages:
/// `{"items": [...], "total_count": 9}`, `{"data": {"articles": [...]}}`.
///
/// A list of records is an array whose elements are all objects. The search follows objects
/// (never arrays) down to ``maximumDepth`` keys. One non-empty list is the answer; among
/// several, the one `preferring` picks when it picks exactly one, else the one named `data`,
/// `items`, `results` or `records` when exactly one is; empty lists count only when there is
/// no other.
///
/// ```swift
/// RecordListLocator.path(in: page, preferring: { $0 == "users" })   // ["items"]
/// ```
enum RecordListLocator {
    /// How many keys deep the search goes.
    static let maximumDepth = 3

    /// The names of the lists APIs usually wrap their records in.
    static let conventionalNames: Set<String> = ["data", "items", "results", "records"]

    /// The key path of the one list of records `object` holds, or `nil`.
    ///
    /// - Parameters:
    ///   - object: the JSON value to search; anything but an object holds no list.
    ///   - isPreferred: whether a list's key (its last segment) names the records wanted.
    static func path(in object: JSONValue, preferring isPreferred: (String) -> Bool) -> [String]? {
        var filled: [[String]] = []
        var empty: [[String]] = []
        var level: [(value: JSONValue, path: [String])] = [(object, [])]
        for _ in 0..<maximumDepth {
            var next: [(value: JSONValue, path: [String])] = []
            for (value, path) in level {
                for (key, member) in value.members {
                    let memberPath = path + [String(decoding: key, as: UTF8.self)]
                    switch member.kind {
                    case .object: next.append((member, memberPath))
                    case .array where member.count == 0: empty.append(memberPath)
                    case .array where member.elements.allSatisfy({ $0.kind == .object }): filled.append(memberPath)
                    default: break
                    }
                }
            }
            level = next
        }
        return choice(among: filled, isPreferred) ?? (filled.isEmpty ? choice(among: empty, isPreferred) : nil)
    }

    private static func choice(among paths: [[String]], _ isPreferred: (String) -> Bool) -> [String]? {
        if paths.count == 1 { return paths[0] }
        let preferred = paths.filter { isPreferred($0.last!) }
        if preferred.count == 1 { return preferred[0] }
        let conventional = paths.filter { conventionalNames.contains($0.last!) }
        return conventional.count == 1 ? conventional[0] : nil
    }
}

extension PayloadReader.Record {
    /// `true` when the record is the whole document (or the one object at the root key path),
    /// not an element of a list nor a line of JSON Lines.
    var isWholeDocument: Bool { line == nil && !path.hasSuffix("]") }
}
