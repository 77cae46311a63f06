/// How a deletion runs (SPEC 2.5, 4.1 `delete`).
///
/// ```swift
/// let report = try mapper.delete("User", ids: ["1"], options: .init(cascade: false))
/// ```
public struct DeleteOptions: Sendable, Hashable {
    /// Apply `cascade` rules; `false` deletes the named rows only and drops their links
    /// (`deny` still refuses).
    public var cascade: Bool
    /// Run the clean-up pass after the deletion (SPEC 2.5).
    public var cleanup: Bool
    /// List every deleted row and why in the report.
    public var explain: Bool

    /// Creates deletion options.
    ///
    /// - Parameters:
    ///   - cascade: apply `cascade` rules; `true` by default.
    ///   - cleanup: run the clean-up pass afterwards; `true` by default.
    ///   - explain: list every deleted row and why in the report; `false` by default.
    public init(cascade: Bool = true, cleanup: Bool = true, explain: Bool = false) {
        self.cascade = cascade
        self.cleanup = cleanup
        self.explain = explain
    }

    /// Cascade, clean up, no explanation.
    public static let `default` = DeleteOptions()
}
