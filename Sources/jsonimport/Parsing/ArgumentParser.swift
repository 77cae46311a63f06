/// Splits command-line tokens into options and positional arguments.
///
/// Rules: `--name VALUE` and `--name=VALUE`; flags take no value; a repeatable option keeps
/// every value; any other option may be given once; `--` ends the options, so every later
/// token is positional (`-` alone is always positional: it names stdin). A value that begins
/// with `--` must be attached with `=`, so a forgotten value never swallows the next option.
struct ArgumentParser {
    let options: [OptionSpec]
    let arguments: [ArgumentSpec]

    init(options: [OptionSpec], arguments: [ArgumentSpec] = []) {
        self.options = options
        self.arguments = arguments
    }

    /// `true` when `--help` or `-h` appears among the options of `tokens`.
    ///
    /// Checked before parsing, so `jsonimport import --prun --help` still shows help.
    static func requestsHelp(_ tokens: some Sequence<String>) -> Bool {
        for token in tokens {
            if token == "--" { return false }
            if token == "--help" || token == "-h" { return true }
        }
        return false
    }

    /// Parses every token: options anywhere, positionals matched to the signature's arguments.
    ///
    /// - Throws: a usage error for an unknown option, a missing or malformed value, a repeated
    ///   option, a missing or unexpected argument.
    func parse(_ tokens: [String]) throws(CLIError) -> ParsedArguments {
        var parsed = ParsedArguments(options: options, arguments: arguments)
        var positionals: [String] = []
        var index = 0
        var isAfterTerminator = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if isAfterTerminator || !Self.isOption(token) {
                positionals.append(token)
            } else if token == "--" {
                isAfterTerminator = true
            } else {
                try parseOption(token, tokens: tokens, index: &index, into: &parsed)
            }
        }
        try assign(positionals, into: &parsed)
        return parsed
    }

    /// Parses options up to the first positional token, which is returned with all that follows.
    ///
    /// Used for the tool's own options, which come before the command name.
    func parsePrefix(_ tokens: [String]) throws(CLIError) -> (ParsedArguments, rest: ArraySlice<String>) {
        var parsed = ParsedArguments(options: options, arguments: arguments)
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if token == "--" { return (parsed, tokens[(index + 1)...]) }
            if !Self.isOption(token) { return (parsed, tokens[index...]) }
            index += 1
            try parseOption(token, tokens: tokens, index: &index, into: &parsed)
        }
        return (parsed, [])
    }

    private static func isOption(_ token: String) -> Bool {
        token.hasPrefix("-") && token != "-"
    }

    private func parseOption(
        _ token: String, tokens: [String], index: inout Int, into parsed: inout ParsedArguments
    ) throws(CLIError) {
        let (name, attached) = Self.split(token)
        guard let option = options.first(where: { $0.spellings.contains(name) }) else {
            throw .unknownOption(name, candidates: options.map(\.name))
        }
        if !option.isRepeatable && parsed.isSet(option.name) {
            throw .usage("option '\(option.name)' given more than once")
        }
        if option.isFlag {
            if attached != nil { throw .usage("option '\(option.name)' does not take a value") }
            parsed.append("", to: option.name)
            return
        }
        let value: String
        if let attached {
            value = attached
        } else if index < tokens.count, !tokens[index].hasPrefix("--") {
            value = tokens[index]
            index += 1
        } else {
            throw .missingValue(for: option.name)
        }
        try check(value, against: option)
        parsed.append(value, to: option.name)
    }

    /// `--name=value` → (`--name`, `value`); anything else → (token, nil).
    private static func split(_ token: String) -> (String, String?) {
        guard token.hasPrefix("--"), let equals = token.firstIndex(of: "=") else { return (token, nil) }
        return (String(token[..<equals]), String(token[token.index(after: equals)...]))
    }

    private func check(_ value: String, against option: OptionSpec) throws(CLIError) {
        guard let allowed = option.allowedValues, !allowed.contains(value) else { return }
        let expected = "one of " + allowed.joined(separator: ", ")
        let message = "invalid value '\(value)' for option '\(option.name)': expected \(expected)"
        throw .usage(message, token: value, candidates: allowed)
    }

    /// Hands positionals to the declared arguments in order. A required argument takes the next
    /// value; an optional or repeatable one takes what the required arguments after it leave.
    private func assign(_ positionals: [String], into parsed: inout ParsedArguments) throws(CLIError) {
        var remaining = positionals[...]
        for (position, argument) in arguments.enumerated() {
            let laterRequired = arguments[(position + 1)...].filter { !$0.isOptional }.count
            let spare = max(0, remaining.count - laterRequired)
            var count = argument.isRepeatable ? spare : min(1, spare)
            if count == 0 && !argument.isOptional {
                guard !remaining.isEmpty else { throw .usage("missing argument '\(argument.name)'") }
                count = 1
            }
            for value in remaining.prefix(count) { parsed.append(argument: value, to: argument.name) }
            remaining = remaining.dropFirst(count)
        }
        if let extra = remaining.first {
            throw .usage("unexpected argument '\(extra)'")
        }
    }
}
