/// Where each shortcut of one of a hierarchy's arc tables has its two halves, so that a route is
/// unpacked by following arc numbers instead of looking every half up.
///
/// A shortcut `from → to` skips a node `via` contracted before both ends (a larger number), so its
/// halves are the arc `from → via`, which climbs down into `via` and sits in `via`'s row of the
/// downward table, and the arc `via → to`, which climbs up and sits in `via`'s row of the upward
/// table — whichever table the shortcut itself is in.
struct ShortcutHalves: Sendable {
    /// For arc `a`: at `2a` its first half (an arc of the downward table), at `2a + 1` its second
    /// (an arc of the upward table); -1 for both when the arc is a road segment.
    private let halves: [Int32]

    /// The halves of every arc of `table` (``ContractionHierarchy/up`` when `upward`, whose rows
    /// list the arcs' ends, or ``ContractionHierarchy/down``, whose rows list their starts).
    /// `nil` when a shortcut's half is missing, which a well-formed hierarchy never has.
    init?(of table: ArcTable, upward: Bool, up: ArcTable, down: ArcTable) {
        var halves = [Int32](repeating: -1, count: table.count * 2)
        for row in 0..<table.first.count - 1 {
            for arc in table.range(of: row) {
                let via = Int(table.via[arc])
                guard via >= 0 else { continue }
                let other = Int(table.arcs[arc].node)
                let (from, to) = upward ? (row, other) : (other, row)
                guard let first = down.arc(of: via, other: from), let second = up.arc(of: via, other: to) else { return nil }
                halves[2 * arc] = Int32(first)
                halves[2 * arc + 1] = Int32(second)
            }
        }
        self.halves = halves
    }

    /// The arc `from → via` of shortcut `arc`, in the downward table.
    @inline(__always)
    func first(of arc: Int) -> Int { Int(halves[2 * arc]) }

    /// The arc `via → to` of shortcut `arc`, in the upward table.
    @inline(__always)
    func second(of arc: Int) -> Int { Int(halves[2 * arc + 1]) }
}
