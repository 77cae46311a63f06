import Foundation

/// How a draft mapping names what it finds: properties after their JSON keys in lowerCamelCase,
/// entities after the key they sit under in UpperCamelCase, singular for the elements of lists.
///
/// ```swift
/// DraftNames.propertyName(for: "avatar_url")              // "avatarUrl"
/// DraftNames.entityName(for: "pull_requests", isList: true) // "PullRequest"
/// DraftNames.singular("categories")                        // "category"
/// ```
enum DraftNames {
    /// Names are cut to this many characters, so that the longest identifier the store derives
    /// from an entity and a property, the index `Entity_relationship_target` of a link table,
    /// keeps within PostgreSQL's 63 bytes (names are ASCII).
    static let maximumLength = 27

    /// The words of a JSON key, its accents dropped: split at every character that is not an
    /// ASCII letter or digit, then at case changes as ``KeyStyle`` splits names (`htmlURL` →
    /// `html`, `URL`).
    static func words(of key: String) -> [String] {
        var chunks: [String] = []
        var current = ""
        // `naïve` → `naive`: accents go, so the letters they sit on stay in their word.
        for scalar in key.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil).unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
            } else if !current.isEmpty {
                chunks.append(current)
                current = ""
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks.flatMap(KeyStyle.words(of:))
    }

    /// The property name for a JSON key: `created_at` → `createdAt`, `_id` → `id`, `+1` →
    /// `plus1`; a key without letters or digits becomes `field`, one starting with a digit gets
    /// `field` before it.
    static func propertyName(for key: String) -> String {
        // Reaction counts and the like: `+1` → `plus1`, `-1` → `minus1`.
        var words = words(of: key)
        if key.hasPrefix("+") { words.insert("plus", at: 0) }
        if key.hasPrefix("-"), key.dropFirst().first?.isNumber == true { words.insert("minus", at: 0) }
        guard let first = words.first else { return "field" }
        var name = first.lowercased() + words.dropFirst().map(capitalized).joined()
        if name.first!.isNumber { name = "field" + name }
        return String(name.prefix(maximumLength))
    }

    /// The entity name for the objects under a JSON key: `owner` → `Owner`, and for the elements
    /// of a list `labels` → `Label`.
    static func entityName(for key: String, isList: Bool) -> String {
        var words = words(of: key)
        guard let last = words.last else { return "Item" }
        if isList { words[words.count - 1] = singular(last) }
        var name = words.map(capitalized).joined()
        if name.first!.isNumber { name = "Item" + name }
        return String(name.prefix(maximumLength))
    }

    /// `true` when the key's last word names a point in time (`created_at`, `publishedOn`,
    /// `birth_date`, `start_time`, `timestamp`): integers there in the range of recent epoch
    /// seconds or milliseconds are dates.
    static func isTimeName(_ key: String) -> Bool {
        guard let last = words(of: key).last?.lowercased() else { return false }
        return ["at", "on", "date", "time", "timestamp", "since", "until"].contains(last)
    }

    /// `true` for a name the mappings accept: `[A-Za-z_][A-Za-z0-9_]*`, not starting with `_`.
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "_") else { return false }
        return name.utf8.enumerated().allSatisfy { index, byte in
            let isLetter = (65...90).contains(byte) || (97...122).contains(byte) || byte == UInt8(ascii: "_")
            return isLetter || (index > 0 && (48...57).contains(byte))
        }
    }

    /// The singular of an English plural, keeping the first letter's case: `repos` → `repo`,
    /// `categories` → `category`, `addresses` → `address`, `people` → `person`; a word that
    /// does not look plural (`status`, `address`, `data`) is kept.
    static func singular(_ word: String) -> String {
        let lower = word.lowercased()
        let singular: String
        if let irregular = irregularPlurals[lower] {
            singular = irregular
        } else if lower.count > 4 && lower.hasSuffix("ies") {
            singular = lower.dropLast(3) + "y"
        } else if ["sses", "shes", "ches", "xes", "zzes"].contains(where: lower.hasSuffix) {
            singular = String(lower.dropLast(2))
        } else if lower.count > 2 && lower.hasSuffix("s") && !["ss", "us", "is"].contains(where: lower.hasSuffix) {
            singular = String(lower.dropLast())
        } else {
            singular = lower
        }
        guard singular != lower else { return word }
        return word.first!.isUppercase ? capitalized(singular) : singular
    }

    private static let irregularPlurals: [String: String] = [
        "people": "person", "children": "child", "men": "man", "women": "woman", "mice": "mouse",
        "geese": "goose", "feet": "foot", "teeth": "tooth", "indices": "index", "matrices": "matrix",
        "vertices": "vertex", "analyses": "analysis", "statuses": "status", "aliases": "alias",
        "buses": "bus", "movies": "movie", "cookies": "cookie", "series": "series", "species": "species",
        "news": "news", "criteria": "criterion", "quizzes": "quiz",
    ]

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }
}
