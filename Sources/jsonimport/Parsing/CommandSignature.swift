/// What a command accepts on the command line: its name, positional arguments and options.
///
/// One signature drives both parsing and help, so the two cannot drift apart.
struct CommandSignature: Sendable {
    /// The word that selects the command: `jsonimport validate`.
    let name: String
    /// One sentence for the COMMANDS table and the OVERVIEW section.
    let overview: String
    /// Paragraphs printed after the overview in the command's help.
    let discussion: [String]
    let arguments: [ArgumentSpec]
    /// The command's own options; global options are added by the tool.
    let options: [OptionSpec]

    init(
        name: String, overview: String, discussion: [String] = [],
        arguments: [ArgumentSpec] = [], options: [OptionSpec] = []
    ) {
        self.name = name
        self.overview = overview
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
    }
}

/// A positional argument, such as `ENTITY` or `FILE...`.
struct ArgumentSpec: Sendable {
    /// Upper-case placeholder shown in usage and help.
    let name: String
    let help: String
    /// Takes every remaining positional value (`FILE...`); at least one unless optional.
    let isRepeatable: Bool
    let isOptional: Bool

    init(_ name: String, help: String, isRepeatable: Bool = false, isOptional: Bool = false) {
        self.name = name
        self.help = help
        self.isRepeatable = isRepeatable
        self.isOptional = isOptional
    }

    /// How usage lines show it: `ENTITY`, `[ENTITY]`, `FILE...`.
    var usage: String {
        let base = isRepeatable ? "\(name)..." : name
        return isOptional ? "[\(base)]" : base
    }
}

/// An option: a flag (`--prune`) or an option taking a value (`--format json`).
struct OptionSpec: Sendable {
    /// Long name with its dashes: `--format`.
    let name: String
    /// Other spellings, such as `-h`.
    let aliases: [String]
    /// Placeholder for the value; `nil` for a flag.
    let valueName: String?
    let help: String
    /// How the help describes the default, if there is one.
    let defaultDescription: String?
    /// The only values accepted, if the set is closed.
    let allowedValues: [String]?
    /// May be given more than once; every value is kept in order.
    let isRepeatable: Bool

    /// A flag that takes no value.
    static func flag(_ name: String, aliases: [String] = [], help: String) -> OptionSpec {
        OptionSpec(
            name: name, aliases: aliases, valueName: nil, help: help,
            defaultDescription: nil, allowedValues: nil, isRepeatable: false)
    }

    /// An option that takes a value, as `--name VALUE` or `--name=VALUE`.
    static func value(
        _ name: String, _ valueName: String, help: String, default defaultDescription: String? = nil,
        allowed allowedValues: [String]? = nil, isRepeatable: Bool = false
    ) -> OptionSpec {
        OptionSpec(
            name: name, aliases: [], valueName: valueName, help: help,
            defaultDescription: defaultDescription, allowedValues: allowedValues,
            isRepeatable: isRepeatable)
    }

    var isFlag: Bool { valueName == nil }

    /// Every spelling that selects this option.
    var spellings: [String] { aliases + [name] }
}
