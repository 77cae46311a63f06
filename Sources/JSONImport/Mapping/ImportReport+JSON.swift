extension ImportReport {
    /// The report as the single JSON object of SPEC 4.2, keys in the documented order.
    public func json(explain: Bool = false) -> String {
        var out = JSONTextWriter()
        out.append("{\"entity\":")
        if let entity { out.appendString(entity) } else { out.append("null") }
        out.appendRaw(",\"records\":\(records),\"skipped\":\(skipped),\"dryRun\":\(dryRun)")
        if let requests, let notModified { out.appendRaw(",\"requests\":\(requests),\"notModified\":\(notModified)") }
        out.append(",\"changes\":{")
        for (i, change) in changes.enumerated() {
            if i > 0 { out.append(",") }
            out.appendString(change.entity)
            let c = change.counts
            out.appendRaw(":{\"inserted\":\(c.inserted),\"updated\":\(c.updated),\"unchanged\":\(c.unchanged),\"deleted\":\(c.deleted)}")
        }
        out.append("},\"orphansRemoved\":")
        Self.appendCounts(orphansRemoved.map { ($0.entity, $0.count) }, to: &out)
        out.append(",\"stubs\":")
        Self.appendCounts(stubs.map { ($0.entity, $0.count) }, to: &out)
        out.append(",\"skippedLinks\":")
        Self.appendCounts(skippedLinks.map { ($0.relationship, $0.count) }, to: &out)
        out.append(",\"staleRecords\":")
        Self.appendCounts(staleRecords.map { ($0.entity, $0.count) }, to: &out)
        out.append(",\"errors\":[")
        for (i, error) in errors.enumerated() {
            if i > 0 { out.append(",") }
            out.append("{\"file\":")
            if let file = error.file { out.appendString(file) } else { out.append("null") }
            out.appendRaw(",\"record\":" + (error.record.map(String.init) ?? "null"))
            if let offset = error.offset { out.appendRaw(",\"offset\":\(offset)") }
            if let line = error.line { out.appendRaw(",\"line\":\(line)") }
            if let column = error.column { out.appendRaw(",\"column\":\(column)") }
            out.append(",\"path\":")
            out.appendString(error.path)
            out.append(",\"message\":")
            out.appendString(error.message)
            out.append("}")
        }
        out.append("]")
        if explain {
            out.append(",\"deletions\":[")
            for (i, deletion) in (deletions ?? []).enumerated() {
                if i > 0 { out.append(",") }
                out.append("{\"entity\":")
                out.appendString(deletion.entity)
                out.append(",\"key\":")
                switch deletion.key.count {
                case 0: out.append("null")
                case 1: out.append(deletion.key[0])
                default:
                    out.append("[")
                    for (k, value) in deletion.key.enumerated() {
                        if k > 0 { out.append(",") }
                        out.append(value)
                    }
                    out.append("]")
                }
                out.append(",\"reason\":")
                out.appendString(deletion.reason.rawValue)
                out.append("}")
            }
            out.append("]")
        }
        out.append("}")
        return out.text
    }

    private static func appendCounts(_ counts: [(String, Int)], to out: inout JSONTextWriter) {
        out.append("{")
        for (i, (name, count)) in counts.enumerated() {
            if i > 0 { out.append(",") }
            out.appendString(name)
            out.appendRaw(":\(count)")
        }
        out.append("}")
    }

    /// A short human-readable summary, one line per item; control characters from the data
    /// (in keys and error messages) are shown as `\u{1B}`, so printing it to a terminal is safe.
    public var text: String {
        var lines: [String] = []
        let deleted = changes.reduce(0) { $0 + $1.counts.deleted }
        switch operation {
        case .import:
            let head = entity.map { "\($0): " } ?? ""
            lines.append("\(head)\(records) record\(records == 1 ? "" : "s") read, \(skipped) skipped\(dryRun ? " (dry run: nothing kept)" : "")")
            if let requests, let notModified {
                lines.append("  \(requests) request\(requests == 1 ? "" : "s"), \(notModified) not modified")
            }
        case .delete:
            lines.append("delete \(entity ?? ""): \(deleted) row\(deleted == 1 ? "" : "s") deleted")
        case .clean:
            lines.append("clean: \(deleted) row\(deleted == 1 ? "" : "s") deleted")
        }
        for change in changes {
            let c = change.counts
            lines.append("  \(change.entity): \(c.inserted) inserted, \(c.updated) updated, \(c.unchanged) unchanged, \(c.deleted) deleted")
        }
        if !orphansRemoved.isEmpty {
            lines.append("  orphans removed: " + orphansRemoved.map { "\($0.entity) \($0.count)" }.joined(separator: ", "))
        }
        if !stubs.isEmpty { lines.append("  stubs: " + stubs.map { "\($0.entity) \($0.count)" }.joined(separator: ", ")) }
        if !skippedLinks.isEmpty {
            lines.append("  skipped links: " + skippedLinks.map { "\($0.relationship) \($0.count)" }.joined(separator: ", "))
        }
        if !staleRecords.isEmpty {
            lines.append("  stale records: " + staleRecords.map { "\($0.entity) \($0.count)" }.joined(separator: ", "))
        }
        for error in errors { lines.append("  skipped: \(error)") }
        for deletion in deletions ?? [] {
            let key = deletion.key.map(\.description).joined(separator: ", ")
            lines.append("  deleted \(deletion.entity) \(key.isEmpty ? "(owned)" : key): \(deletion.reason.rawValue)")
        }
        return lines.map { TerminalText.escaped($0) }.joined(separator: "\n")
    }
}

extension JSONTextWriter {
    /// A stored value as JSON: numbers, strings, `null`.
    mutating func append(_ value: StoredValue) {
        switch value {
        case .null: append("null")
        case .integer(let v): appendRaw(String(v))
        case .real(let v): appendRaw(v.isFinite ? String(v) : "null")
        case .text(let s): appendString(s)
        }
    }
}
