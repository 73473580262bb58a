import HeapModule

/// An optimal assignment on a sparse bipartite graph: each row takes at most one column, each
/// column at most one row, any row may stay unassigned at a fixed cost, and the total cost is
/// the least possible. Successive shortest augmenting paths with Dijkstra on reduced costs
/// (node potentials), the sparse form of the Hungarian method.
public struct MinCostAssignment {
    /// A row may be assigned to `column` at `cost` (non-negative).
    public struct Arc: Sendable {
        public let row: Int
        public let column: Int
        public let cost: Int
        public init(row: Int, column: Int, cost: Int) {
            self.row = row
            self.column = column
            self.cost = cost
        }
    }

    /// Solves the assignment. Returns, for each row, its column or `nil` when leaving it
    /// unassigned (at `unassignedCost`) is cheapest.
    public static func solve(rows: Int, columns: Int, arcs: [Arc], unassignedCost: Int) -> [Int?] {
        guard rows > 0 else { return [] }
        // Row i's "unassigned" choice is a column of its own, numbered columns + i.
        let totalColumns = columns + rows
        var adjacency = [[(column: Int, cost: Int)]](repeating: [], count: rows)
        for arc in arcs {
            precondition(arc.cost >= 0 && (0..<rows).contains(arc.row) && (0..<columns).contains(arc.column))
            adjacency[arc.row].append((arc.column, arc.cost))
        }
        for row in 0..<rows { adjacency[row].append((columns + row, unassignedCost)) }

        var columnOfRow = [Int](repeating: -1, count: rows)
        var rowOfColumn = [Int](repeating: -1, count: totalColumns)
        // Node numbering for the search: rows 0..<rows, then columns.
        let nodeCount = rows + totalColumns
        var potential = [Int](repeating: 0, count: nodeCount)
        var distance = [Int](repeating: .max, count: nodeCount)
        var parentRow = [Int](repeating: -1, count: totalColumns)
        var touched: [Int] = []
        var queue = Heap<UInt64>()

        for source in 0..<rows {
            for node in touched { distance[node] = .max }
            touched.removeAll(keepingCapacity: true)
            while queue.popMin() != nil {}
            distance[source] = 0
            touched.append(source)
            queue.insert(pack(0, source))
            var target = -1
            while let entry = queue.popMin() {
                let (reached, node) = unpack(entry)
                guard reached <= distance[node] else { continue }
                if node < rows {
                    for (column, cost) in adjacency[node] {
                        let columnNode = rows + column
                        let next = reached + cost + potential[node] - potential[columnNode]
                        if next < distance[columnNode] {
                            if distance[columnNode] == .max { touched.append(columnNode) }
                            distance[columnNode] = next
                            parentRow[column] = node
                            queue.insert(pack(next, columnNode))
                        }
                    }
                } else {
                    let column = node - rows
                    let matched = rowOfColumn[column]
                    if matched < 0 {
                        target = column
                        break
                    }
                    // The matched arc is tight (reduced cost 0): its row is reached at the same distance.
                    let cost = adjacency[matched].first { $0.column == column }!.cost
                    let next = reached - cost + potential[node] - potential[matched]
                    if next < distance[matched] {
                        if distance[matched] == .max { touched.append(matched) }
                        distance[matched] = next
                        queue.insert(pack(next, matched))
                    }
                }
            }
            // Every row has its own free "unassigned" column, so a path always exists.
            let shortest = distance[rows + target]
            for node in 0..<nodeCount { potential[node] += min(distance[node], shortest) }
            var column = target
            while true {
                let row = parentRow[column]
                let previous = columnOfRow[row]
                columnOfRow[row] = column
                rowOfColumn[column] = row
                if row == source { break }
                column = previous
            }
        }
        return columnOfRow.map { $0 < columns ? $0 : nil }
    }

    private static func pack(_ distance: Int, _ node: Int) -> UInt64 { UInt64(distance) << 24 | UInt64(node) }
    private static func unpack(_ entry: UInt64) -> (Int, Int) { (Int(entry >> 24), Int(entry & 0xFF_FFFF)) }
}
