import JSONImport

extension Suggestion {
    /// The candidate closest to a mistyped command, option or value, if it is close enough to be
    /// a typo. Leading dashes are ignored when comparing, so `--prun` suggests `--prune`.
    static func closest(to token: String, in candidates: [String]) -> String? {
        let bare = candidates.map { String($0.drop { $0 == "-" }) }
        let typed = String(token.drop { $0 == "-" })
        guard !typed.isEmpty else { return nil }
        if let exact = bare.firstIndex(of: typed), candidates[exact] != token { return candidates[exact] }
        return Suggestion.closest(to: typed, among: bare).flatMap { match in
            bare.firstIndex(of: match).map { candidates[$0] }
        }
    }
}
