import Foundation

/// A header a fetch sends with every request.
///
/// Written `Name: value`, a header may take its value, or part of it, from the environment:
/// `$VAR` and `${VAR}` are replaced by the variable's value, so a token stays out of shell
/// history and process lists. The header's ``description`` shows it as written, never the
/// values put in, and no error, report or progress of a fetch shows them either.
///
/// ```swift
/// let auth = try HTTPHeader(expanding: "Authorization: Bearer ${API_TOKEN}")
/// print(auth)   // Authorization: Bearer ${API_TOKEN}
/// ```
public struct HTTPHeader: Sendable, Hashable, CustomStringConvertible {
    /// The header's name: `Authorization`.
    public let name: String
    /// The value sent.
    public let value: String
    /// The value as written, before expansion: what ``description`` shows.
    private let written: String

    /// A header sent as given.
    ///
    /// - Parameters:
    ///   - name: the header's name.
    ///   - value: its value, sent as is (no expansion).
    public init(name: String, value: String) {
        self.name = name
        self.value = value
        self.written = value
    }

    /// A header from its `Name: value` form, with `$VAR` and `${VAR}` in the value replaced from
    /// `environment`. A `$` followed by neither a name nor `{` stays as it is. Spaces around the
    /// value are dropped.
    ///
    /// - Parameters:
    ///   - line: `Name: value`.
    ///   - environment: where variables are looked up; the process's environment by default.
    /// - Throws: ``ImportError`` with code `usage` for a line without a name and a colon, a name
    ///   that is not a header name, an unset variable (named), an unclosed `${`, or a value
    ///   holding a line break or another control character once expanded (the value is not
    ///   shown).
    public init(expanding line: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(ImportError) {
        guard let colon = line.firstIndex(of: ":") else {
            throw Self.failure("invalid header '\(TerminalText.escaped(line))': expected 'Name: value'")
        }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.unicodeScalars.allSatisfy(Self.isTokenCharacter) else {
            throw Self.failure("invalid header name '\(TerminalText.escaped(name))' in '\(TerminalText.escaped(line))'")
        }
        let written = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        let value = try Self.expand(written, header: name, environment: environment)
        if written.unicodeScalars.contains(where: Self.isForbidden) {
            throw Self.failure("the value of header '\(name)' holds a control character")
        }
        if value.unicodeScalars.contains(where: Self.isForbidden) {
            throw Self.failure("the value of header '\(name)' holds a control character once its variables are expanded")
        }
        self.name = name
        self.value = value
        self.written = written
    }

    /// `Name: value`, the value as written (variables not expanded).
    public var description: String { "\(name): \(written)" }

    /// `$VAR` and `${VAR}` in `text` replaced from `environment`.
    private static func expand(_ text: String, header: String, environment: [String: String]) throws(ImportError) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            guard scalars[i] == "$" else {
                result.append(scalars[i])
                i += 1
                continue
            }
            var end = i + 1
            let isBraced = end < scalars.count && scalars[end] == "{"
            if isBraced { end += 1 }
            let start = end
            while end < scalars.count, isVariableCharacter(scalars[end]) { end += 1 }
            let name = String(String.UnicodeScalarView(scalars[start..<end]))
            if isBraced {
                guard end < scalars.count, scalars[end] == "}", isVariableName(name) else {
                    throw failure("header '\(header)': '${' must be followed by a variable name and '}'")
                }
                end += 1
            } else if !isVariableName(name) {
                result.append("$")
                i += 1
                continue
            }
            guard let value = environment[name] else {
                throw failure("environment variable '\(name)' in header '\(header)' is not set")
            }
            result.append(contentsOf: value.unicodeScalars)
            i = end
        }
        return String(result)
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy(isVariableCharacter)
    }

    private static func isVariableCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    /// RFC 9110 `tchar`.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }

    /// Control characters other than tab, which a header value cannot hold.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
    }

    private static func failure(_ message: String) -> ImportError {
        ImportError(code: .usage, message: message, report: ImportReport(entity: nil))
    }
}
