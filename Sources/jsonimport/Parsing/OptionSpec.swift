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
