import Foundation

/// Writes a draft mapping as YAML that the mapping loader reads: entities in the order they
/// were met, root first; attributes and relationships in the order their keys were first seen;
/// the short form `name: TYPE` wherever nothing else needs saying; trailing comments, aligned
/// within each block, saying what the samples showed.
struct DraftWriter {
    let entities: [DraftEntity]
    let keyStyle: KeyStyle
    /// Where the root records sit in a JSON sample, and why, when not at the top.
    let root: (segments: [String], note: String?)?
    /// The samples' names, for the header.
    let sources: [String]

    /// The whole file.
    var text: String {
        var lines = header
        lines.append("version: 1")
        if keyStyle != .asIs { lines += ["defaults:", "  keyStyle: \(keyStyle.rawValue)"] }
        lines.append("entities:")
        for (index, entity) in entities.enumerated() { lines += self.lines(of: entity, isRoot: index == 0) }
        return lines.joined(separator: "\n") + "\n"
    }

    private var header: [String] {
        let names = sources.map { $0 == "-" ? "standard input" : Self.quotedForComment($0) }
        let shown = sources.count <= 3 ? names.joined(separator: ", ") : "\(sources.count) files"
        let records = entities[0].count
        return [
            "# Draft mapping for \(entities[0].name), inferred from \(shown): \(records) record\(records == 1 ? "" : "s").",
            "# Names, keys and types are guesses from the samples: review them before use.",
            "# 'optional: in P of N' marks a key that some records lack, 'null in Z' one that was",
            "# sometimes null; a key without a comment was in every record, never null.",
        ]
    }

    // MARK: Entities

    private func lines(of entity: DraftEntity, isRoot: Bool) -> [String] {
        var lines = [Self.commented("  \(entity.name):", entityComment(entity, isRoot: isRoot))]
        if let key = entity.keyField { lines.append("    primaryKey: \(entity.fields[key].property)") }
        if isRoot, let root {
            lines.append(Self.commented("    root: \(Self.keyPath(root.segments))", root.note))
        }
        if isRoot && !entity.isKeyed {
            lines.append(Self.commented("    cleanup: none", "no key in every record: each import adds its records as new rows"))
        }
        if let style = entity.keyStyle { lines.append("    keyStyle: \(style.rawValue)") }
        let style = entity.keyStyle ?? keyStyle
        let attributes = entity.fields.filter { $0.role.target == nil }
        let relationships = entity.fields.filter { $0.role.target != nil }
        lines.append("    attributes:")
        lines += Self.aligned(attributes.map { field in
            ("      \(field.property): \(attributeValue(field, style: style))", comment(on: field, count: entity.count))
        })
        if !relationships.isEmpty {
            lines.append("    relationships:")
            lines += Self.aligned(relationships.map { field in
                ("      \(field.property): \(relationshipValue(field, style: style))", comment(on: field, count: entity.count))
            })
        }
        return lines
    }

    private func entityComment(_ entity: DraftEntity, isRoot: Bool) -> String {
        if isRoot { return "\(entity.count) record\(entity.count == 1 ? "" : "s")" }
        var places = entity.places.prefix(3).joined(separator: ", ")
        if entity.places.count > 3 { places += " and \(entity.places.count - 3) more" }
        let objects = "\(entity.count) object\(entity.count == 1 ? "" : "s") in \(places)"
        guard !entity.isKeyed else { return objects }
        guard let candidate = entity.fields.first(where: { KeyCandidates.isCandidate($0.key, entity: entity.name) }) else {
            return objects + "; owned: no id"
        }
        let values = candidate.values
        let why = values.present < entity.count ? "missing in \(entity.count - values.present)"
            : values.nulls > 0 ? "null in \(values.nulls)" : "not always an integer or a string"
        return objects + "; owned: '\(candidate.key)' \(why)"
    }

    // MARK: Properties

    private func attributeValue(_ field: DraftField, style: KeyStyle) -> String {
        let key = explicitKey(of: field, style: style)
        switch field.role {
        case .list(let element):
            let type = "\"[\(element.type.rawValue)]\""
            return key.map { "{ key: \($0), type: \(type) }" } ?? type
        case .attribute(let scalar):
            var parts = key.map { ["key: \($0)"] } ?? []
            parts.append("type: \(scalar.type.rawValue)")
            if scalar.type == .date && scalar.format != .iso8601 { parts.append("format: \(scalar.format)") }
            if scalar.readsEmptyAsNull { parts.append("nullIf: \"\"") }
            return parts.count == 1 ? scalar.type.rawValue : "{ \(parts.joined(separator: ", ")) }"
        case .one, .many:
            preconditionFailure("a relationship is not written as an attribute")
        }
    }

    private func relationshipValue(_ field: DraftField, style: KeyStyle) -> String {
        let kind: String
        let target: Int
        switch field.role {
        case .one(let entity): (kind, target) = ("one", entity)
        case .many(let entity): (kind, target) = ("many", entity)
        case .attribute, .list: preconditionFailure("an attribute is not written as a relationship")
        }
        var parts = ["to: \(entities[target].name)", "kind: \(kind)"]
        if let key = explicitKey(of: field, style: style) { parts.append("key: \(key)") }
        return "{ \(parts.joined(separator: ", ")) }"
    }

    /// The `key` to write: `nil` when the key style gives the JSON key from the property name.
    private func explicitKey(of field: DraftField, style: KeyStyle) -> String? {
        style.key(for: field.property) == field.key ? nil : Self.keyPath([field.key])
    }

    /// What the samples showed of the key: how often it was missing or null, and why its type.
    private func comment(on field: DraftField, count: Int) -> String? {
        var parts: [String] = []
        let values = field.values
        if values.present < count { parts.append("optional: in \(values.present) of \(count)") }
        if values.nulls > 0 && values.structure != .nullOnly {
            parts.append(values.present < count ? "null in \(values.nulls)" : "null in \(values.nulls) of \(count)")
        }
        switch field.role {
        case .attribute(let scalar), .list(let scalar):
            if let note = scalar.note { parts.append(note) }
            if scalar.readsEmptyAsNull { parts.append("\"\" read as null") }
        case .one, .many: break
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    // MARK: YAML text

    /// Lines with their comments aligned one column past the longest line that has one (up to
    /// ``commentColumn``).
    private static func aligned(_ lines: [(text: String, comment: String?)]) -> [String] {
        let width = min(lines.filter { $0.comment != nil }.map(\.text.count).max() ?? 0, commentColumn)
        return lines.map { line in
            guard let comment = line.comment else { return line.text }
            let padding = String(repeating: " ", count: max(width - line.text.count, 0))
            return commented(line.text + padding, comment)
        }
    }

    /// Comments start at this column at the latest.
    private static let commentColumn = 56

    private static func commented(_ text: String, _ comment: String?) -> String {
        guard let comment else { return text }
        return "\(text)  # \(quotedForComment(comment))"
    }

    /// A key path: dotted when no segment holds a dot, else a YAML list of literal segments.
    static func keyPath(_ segments: [String]) -> String {
        if segments.allSatisfy({ isPlain($0) }) { return segments.joined(separator: ".") }
        if segments.contains(where: { $0.contains(".") }) || segments.count > 1 {
            return "[" + segments.map(quoted).joined(separator: ", ") + "]"
        }
        return quoted(segments[0])
    }

    /// YAML words that would not read as strings when plain.
    private static let reservedWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]

    /// Text that YAML reads, plain, as this very string.
    private static func isPlain(_ text: String) -> Bool {
        guard let first = text.utf8.first, !reservedWords.contains(text.lowercased()) else { return false }
        let isLetter = { (byte: UInt8) in (65...90).contains(byte) || (97...122).contains(byte) || byte == UInt8(ascii: "_") }
        return isLetter(first) && text.utf8.allSatisfy { isLetter($0) || (48...57).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// `text` as a YAML double-quoted scalar: `"`, `\`, control characters and line breaks
    /// escaped (YAML reads U+0085, U+2028 and U+2029 as line breaks).
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text, escaping: "\"\\") + "\""
    }

    /// `text` safe to end a line after `#`: line breaks and control characters escaped, and
    /// quoted when it was changed or has leading or trailing blanks.
    static func quotedForComment(_ text: String) -> String {
        let escaped = escaped(text, escaping: "")
        return escaped == text && text.trimmingCharacters(in: .whitespaces) == text ? text : quoted(text)
    }

    private static func escaped(_ text: String, escaping specials: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if specials.unicodeScalars.contains(scalar) {
                out += "\\" + String(scalar)
            } else if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || [0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF].contains(scalar.value) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
