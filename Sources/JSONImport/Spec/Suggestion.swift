/// Finds the closest known word to a misspelled one, for "did you mean" hints.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance (case differences count as nothing
    /// when the whole word differs only in case), or `nil` when none is close enough: at most
    /// one edit per three characters (at least one), and fewer edits than the shorter word has
    /// characters, so that `y` does not suggest `x`.
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let lowered = word.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = candidate.lowercased() == lowered ? 0 : editDistance(lowered, candidate.lowercased())
            let limit = max(1, max(word.count, candidate.count) / 3)
            guard distance <= limit, distance < min(word.count, candidate.count) else { continue }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// `" (did you mean 'x'?)"`, or an empty string when nothing is close.
    package static func hint(for word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// adjacent characters each cost one.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
