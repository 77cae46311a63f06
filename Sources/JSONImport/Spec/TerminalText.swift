/// Text for a terminal, with the control characters that data may hold made visible.
///
/// A payload value, key or name printed as it is could move the cursor, clear the screen,
/// retitle the window or fake other output (ESC, CR, BEL…). Text reports, tables and error
/// messages pass what they print through ``escaped(_:keeping:)``, which writes each control
/// character as its code point in Swift's notation: ESC as `\u{1B}`, CR as `\u{D}`, DEL as
/// `\u{7F}`, the C1 control U+009B as `\u{9B}`. JSON output never goes through it: JSON's own
/// escaping already keeps it valid.
package enum TerminalText {
    /// `text` with every control character (U+0000–U+001F, U+007F, U+0080–U+009F) except those
    /// in `kept` written as `\u{…}`, its code point in hexadecimal.
    ///
    /// ```swift
    /// TerminalText.escaped("a\u{1B}]0;x\u{07}")   // a\u{1B}]0;x\u{7}
    /// ```
    ///
    /// - Parameters:
    ///   - text: the text to print.
    ///   - kept: control characters to leave as they are (a tab in a source line, say).
    /// - Returns: the text, unchanged when it holds no other control character.
    package static func escaped(_ text: String, keeping kept: [Unicode.Scalar] = []) -> String {
        guard text.unicodeScalars.contains(where: { isEscaped($0, kept) }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isEscaped(scalar, kept) {
                result.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isEscaped(_ scalar: Unicode.Scalar, _ kept: [Unicode.Scalar]) -> Bool {
        (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)) && !kept.contains(scalar)
    }
}
