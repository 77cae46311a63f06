/// Builds the help texts: for the tool and for each command, with sections OVERVIEW, USAGE,
/// ARGUMENTS, OPTIONS and COMMANDS (empty sections are left out).
enum HelpText {
    static let toolName = "jsonimport"
    static let helpCommandName = "help"
    static let overview =
        "Maps the JSON that web APIs return into a SQLite cache of model objects, as YAML mappings describe."

    /// Options every command and the tool accept besides the global ones.
    static let helpOption = OptionSpec.flag("--help", aliases: ["-h"], help: "Shows this help.")
    static let versionOption = OptionSpec.flag("--version", help: "Prints the version and exits.")

    /// `jsonimport --help`.
    static func forTool() -> String {
        var rows = CommandTable.commands.map { ($0.signature.name, $0.signature.overview) }
        rows.append(("\(helpCommandName) [COMMAND]", "Shows help for the tool or for a command."))
        return join([
            section("OVERVIEW", paragraphs: [overview]),
            usage([toolName] + GlobalOptions.options.map(usageFragment) + ["COMMAND", "..."]),
            options(GlobalOptions.options + [versionOption, helpOption]),
            "COMMANDS:\n" + table(rows),
            "See '\(toolName) help COMMAND' for a command's arguments and options.\n",
        ])
    }

    /// `jsonimport COMMAND --help`, `jsonimport help COMMAND`.
    static func forCommand(_ signature: CommandSignature) -> String {
        var sections = [section("OVERVIEW", paragraphs: [signature.overview] + signature.discussion)]
        sections.append(usage([toolName, signature.name, "[OPTIONS]"] + signature.arguments.map(\.usage)))
        if !signature.arguments.isEmpty {
            sections.append("ARGUMENTS:\n" + table(signature.arguments.map { ($0.name, $0.help) }))
        }
        sections.append(options(signature.options + GlobalOptions.options + [helpOption]))
        return join(sections)
    }

    // MARK: Layout

    static let width = 80
    /// Column where descriptions start in option and command tables.
    static let descriptionColumn = 26

    /// Sections, each ending in a newline, separated by blank lines.
    private static func join(_ sections: [String]) -> String {
        sections.joined(separator: "\n")
    }

    /// `TITLE: first paragraph`, later paragraphs below it, separated by blank lines.
    private static func section(_ title: String, paragraphs: [String]) -> String {
        let first = wrap(paragraphs[0], width: width - title.count - 2)
            .joined(separator: "\n" + String(repeating: " ", count: title.count + 2))
        let rest = paragraphs.dropFirst().map { wrap($0, width: width).joined(separator: "\n") + "\n" }
        return (["\(title): \(first)\n"] + rest).joined(separator: "\n")
    }

    /// The USAGE section; `words` are kept whole (`[--store PATH]` never breaks).
    private static func usage(_ words: [String]) -> String {
        let indent = String(repeating: " ", count: "USAGE: \(toolName) ".count)
        let lines = wrap(words: words, width: width - 7, continuationWidth: width - indent.count)
        return "USAGE: " + lines.joined(separator: "\n" + indent) + "\n"
    }

    private static func options(_ options: [OptionSpec]) -> String {
        "OPTIONS:\n" + table(options.map { (label(for: $0), description(for: $0)) })
    }

    /// `[--store PATH]` as the tool's usage line shows it.
    private static func usageFragment(_ option: OptionSpec) -> String {
        "[" + option.name + (option.valueName.map { " \($0)" } ?? "") + "]"
    }

    private static func label(for option: OptionSpec) -> String {
        let names = option.spellings.joined(separator: ", ")
        let value = option.valueName.map { " \($0)" } ?? ""
        return names + value + (option.isRepeatable ? " ..." : "")
    }

    private static func description(for option: OptionSpec) -> String {
        var notes: [String] = []
        if let allowed = option.allowedValues { notes.append("values: " + allowed.joined(separator: ", ")) }
        if let defaultDescription = option.defaultDescription {
            notes.append("default: \(defaultDescription)")
        }
        if option.isRepeatable { notes.append("repeatable") }
        return notes.isEmpty ? option.help : "\(option.help) (\(notes.joined(separator: "; ")))"
    }

    /// Two columns: labels indented by two, descriptions wrapped at ``descriptionColumn``.
    private static func table(_ rows: [(String, String)]) -> String {
        let indent = String(repeating: " ", count: descriptionColumn)
        var text = ""
        for (label, description) in rows {
            let lines = wrap(description, width: width - descriptionColumn)
            let head = "  " + label
            if head.count <= descriptionColumn - 2 {
                text += head.padding(toLength: descriptionColumn) + lines[0] + "\n"
            } else {
                text += head + "\n" + indent + lines[0] + "\n"
            }
            for line in lines.dropFirst() { text += indent + line + "\n" }
        }
        return text
    }

    /// Splits `text` into lines of at most `width` characters at spaces (a longer word gets a
    /// line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        wrap(words: text.split(separator: " ").map(String.init), width: width, continuationWidth: width)
    }

    /// Fills lines with `words`, the first line up to `width`, later ones up to `continuationWidth`.
    static func wrap(words: [String], width: Int, continuationWidth: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in words {
            let limit = lines.isEmpty ? width : continuationWidth
            if current.isEmpty {
                current = word
            } else if current.count + 1 + word.count <= limit {
                current += " " + word
            } else {
                lines.append(current)
                current = word
            }
        }
        lines.append(current)
        return lines
    }
}

extension String {
    /// The string padded with spaces on the right to `length` characters.
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
