/// Finds the "did you mean" candidate for a mistyped command, option or value.
enum Suggestion {
    /// The candidate closest to `token` by edit distance, if it is close enough to be a typo.
    ///
    /// Leading dashes are ignored when comparing, so `--prun` suggests `--prune`. A candidate is
    /// close enough when at most a third of its characters (and at least one) differ.
    static func closest(to token: String, in candidates: [String]) -> String? {
        let typed = Array(token.drop { $0 == "-" }.lowercased())
        guard !typed.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != token {
            let target = Array(candidate.drop { $0 == "-" }.lowercased())
            let distance = editDistance(typed, target)
            let limit = max(1, target.count / 3)
            guard distance <= limit else { continue }
            if let best, best.distance <= distance { continue }
            best = (candidate, distance)
        }
        return best?.candidate
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
