/// The options and positional arguments found on a command line, checked against a signature.
///
/// Values are looked up by the names the signature declares (`"--format"`, `"ENTITY"`); asking
/// for a name the signature does not declare is a programming error.
struct ParsedArguments: Sendable {
    /// Every value given per option, in command-line order; a flag records `""` per occurrence.
    private var optionValues: [String: [String]] = [:]
    /// Positional values per argument name.
    private var argumentValues: [String: [String]] = [:]
    /// The names that may be looked up.
    private let knownNames: Set<String>

    init(options: [OptionSpec], arguments: [ArgumentSpec]) {
        knownNames = Set(options.map(\.name) + arguments.map(\.name))
    }

    /// `true` when the flag or option was given at least once.
    func isSet(_ option: String) -> Bool {
        !values(of: option).isEmpty
    }

    /// The value of a non-repeatable option, or `nil` when it was not given.
    func value(of option: String) -> String? {
        values(of: option).last
    }

    /// Every value of a repeatable option, in command-line order.
    func values(of option: String) -> [String] {
        precondition(knownNames.contains(option), "option \(option) is not in the signature")
        return optionValues[option] ?? []
    }

    /// The value of a single positional argument, or `nil` when an optional one was left out.
    func argument(_ name: String) -> String? {
        arguments(name).first
    }

    /// Every value of a repeatable positional argument.
    func arguments(_ name: String) -> [String] {
        precondition(knownNames.contains(name), "argument \(name) is not in the signature")
        return argumentValues[name] ?? []
    }

    /// The names of an option that takes a list (`--fields id,login`), trimmed; `nil` when the
    /// option is not given. An empty list or name (`--fields ""`, `id,,login`) is a usage error.
    func names(of option: String) throws(CLIError) -> [String]? {
        guard let text = value(of: option) else { return nil }
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard !names.contains(where: \.isEmpty) else {
            throw .invalidValue(text, for: option, expected: "names separated by commas")
        }
        return names
    }

    /// The value of `option` as an integer of at least `minimum`, or `nil` when it was not given.
    ///
    /// - Throws: a usage error naming the option when the value is not such an integer.
    func integer(of option: String, minimum: Int = .min) throws(CLIError) -> Int? {
        guard let text = value(of: option) else { return nil }
        guard let number = Int(text), number >= minimum else {
            let bound = minimum == .min ? nil : "\(minimum)"
            throw .invalidValue(text, for: option, expected: Self.expectation("an integer", bound))
        }
        return number
    }

    /// The value of `option` as a finite number of at least `minimum`, or `nil` when not given.
    ///
    /// - Throws: a usage error naming the option when the value is not such a number.
    func number(of option: String, minimum: Double = -.greatestFiniteMagnitude) throws(CLIError) -> Double? {
        guard let text = value(of: option) else { return nil }
        guard let number = Double(text), number.isFinite, number >= minimum else {
            let bound = minimum == -.greatestFiniteMagnitude ? nil : Self.format(minimum)
            throw .invalidValue(text, for: option, expected: Self.expectation("a number", bound))
        }
        return number
    }

    mutating func append(_ value: String, to option: String) {
        optionValues[option, default: []].append(value)
    }

    mutating func append(argument value: String, to name: String) {
        argumentValues[name, default: []].append(value)
    }

    /// Options found in `other` (another stretch of the same command line) added to these.
    ///
    /// - Throws: a usage error when a non-repeatable option appears in both.
    func merging(_ other: ParsedArguments, options: [OptionSpec]) throws(CLIError) -> ParsedArguments {
        var merged = self
        for option in options {
            let extra = other.optionValues[option.name] ?? []
            guard !extra.isEmpty else { continue }
            if !option.isRepeatable && merged.isSet(option.name) {
                throw .usage("option '\(option.name)' given more than once")
            }
            merged.optionValues[option.name, default: []] += extra
        }
        return merged
    }

    private static func expectation(_ kind: String, _ minimum: String?) -> String {
        minimum.map { "\(kind) of at least \($0)" } ?? kind
    }

    /// `30` rather than `30.0` for whole numbers.
    private static func format(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
