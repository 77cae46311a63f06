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
