/// "Did you mean `launch`?" for a mistyped subcommand: the known name nearest to what was typed
/// (by edit distance), if it is near enough to be a typo.
enum CommandSuggestion {
    static func nearest(to typed: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(typed.lowercased(), $0)) }
        guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }) else { return nil }
        // A typo changes a letter or two; an unrelated word is no suggestion.
        return best.1 <= max(1, min(typed.count, best.0.count) / 3) || best.0.hasPrefix(typed.lowercased()) ? best.0 : nil
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
