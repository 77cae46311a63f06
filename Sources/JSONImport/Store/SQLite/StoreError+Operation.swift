extension StoreError {
    /// A few words naming what `sql` does and the table or index it works on, such as
    /// `inserting into User` or `creating index Tag_key`: what an error message shows instead
    /// of the statement.
    static func operation(of sql: String) -> String {
        let tokens = SQLTokens(sql)
        switch tokens.keyword(at: 0) {
        case "INSERT", "REPLACE": return "inserting into \(tokens.name(after: "INTO"))"
        case "UPDATE": return "updating \(tokens.name(after: "UPDATE"))"
        case "DELETE": return "deleting from \(tokens.name(after: "FROM"))"
        case "SELECT", "VALUES": return reading(tokens)
        case "WITH":
            // A common table expression reads; the statement it leads to names the operation.
            guard let verb = tokens.firstKeyword(among: ["INSERT", "REPLACE", "DELETE", "UPDATE"]) else { return reading(tokens) }
            return operation(of: tokens.text(from: verb))
        case "CREATE", "DROP", "ALTER":
            let verb = ["CREATE": "creating", "DROP": "dropping", "ALTER": "altering"][tokens.keyword(at: 0)]!
            let kind = tokens.has("INDEX") ? "index" : tokens.has("VIEW") ? "view" : "table"
            return "\(verb) \(kind) \(tokens.name(after: kind.uppercased()))"
        case "BEGIN": return "starting a transaction"
        case "COMMIT", "END": return "committing"
        case "ROLLBACK": return "rolling back"
        case "SAVEPOINT": return "starting a nested write"
        case "RELEASE": return "finishing a nested write"
        case "PRAGMA":
            let pragma = tokens.name(after: "PRAGMA")
            if pragma == "wal_checkpoint" { return "checkpointing the write-ahead log" }
            return tokens.has("=") ? "setting \(pragma)" : "reading \(pragma)"
        default: return "running a statement"
        }
    }

    private static func reading(_ tokens: SQLTokens) -> String {
        let table = tokens.name(after: "FROM")
        if table.isEmpty { return "reading the store" }
        return table.hasPrefix("sqlite_") ? "reading the store's schema" : "reading \(table)"
    }
}

/// The words of the first statement of some SQL, enough to name what it does: keywords
/// uppercased, quoted identifiers unquoted, string literals and numbers left out.
private struct SQLTokens {
    private enum Token: Equatable {
        case keyword(String)
        case name(String)
    }

    private var tokens: [Token] = []

    init(_ sql: String) {
        var characters = sql.makeIterator()
        var word = ""
        func endWord() {
            if !word.isEmpty { tokens.append(.keyword(word.uppercased())) }
            word = ""
        }
        while let c = characters.next() {
            switch c {
            case "\"", "`":
                endWord()
                var name = ""
                // A doubled quote inside a quoted identifier stands for one.
                while let d = characters.next() {
                    if d == c {
                        var lookahead = characters
                        if lookahead.next() == c {
                            characters = lookahead
                            name.append(c)
                            continue
                        }
                        break
                    }
                    name.append(d)
                }
                tokens.append(.name(name))
            case "'":
                endWord()
                while let d = characters.next(), d != "'" {}
            case ";":
                endWord()
                return
            case "=":
                endWord()
                tokens.append(.keyword("="))
            case _ where c.isLetter || c.isNumber || c == "_":
                word.append(c)
            default:
                endWord()
            }
        }
        endWord()
    }

    func keyword(at index: Int) -> String {
        guard index < tokens.count, case .keyword(let word) = tokens[index] else { return "" }
        return word
    }

    func has(_ keyword: String) -> Bool { tokens.contains(.keyword(keyword)) }

    /// Whichever of `keywords` comes first.
    func firstKeyword(among keywords: Set<String>) -> String? {
        for case .keyword(let word) in tokens where keywords.contains(word) { return word }
        return nil
    }

    /// The name following the first `keyword`, past `IF [NOT] EXISTS` and `OR …` clauses.
    func name(after keyword: String) -> String {
        guard var index = tokens.firstIndex(of: .keyword(keyword)) else { return "" }
        index += 1
        while index < tokens.count, case .keyword(let word) = tokens[index],
            ["IF", "NOT", "EXISTS", "OR", "ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE", "INTO", "TABLE", "INDEX"].contains(word)
        {
            index += 1
        }
        guard index < tokens.count else { return "" }
        switch tokens[index] {
        case .name(let name): return name
        case .keyword(let word): return word.lowercased()
        }
    }

    /// The tokens from the first `keyword` on, as SQL text again (names quoted).
    func text(from keyword: String) -> String {
        guard let start = tokens.firstIndex(of: .keyword(keyword)) else { return "" }
        return tokens[start...].map { token in
            switch token {
            case .keyword(let word): return word
            case .name(let name): return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            }
        }.joined(separator: " ")
    }
}
