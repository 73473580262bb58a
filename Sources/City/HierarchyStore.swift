import Foundation

/// A directory of built hierarchies (``HierarchyFile``), one file per road graph and weights: a
/// process that restarts reads its hierarchies here instead of contracting its roads again.
///
/// Files are named by the graph's fingerprint, so processes of the same run (dispatch's shards)
/// share them; a file is written whole under a temporary name and renamed, so a reader never
/// sees half of one. A missing, damaged or foreign file is built again and replaced.
public final class HierarchyStore {
    public let directory: String
    /// Hierarchies read from a file, and built (and written) here.
    public private(set) var read = 0
    public private(set) var built = 0
    /// Files passed over, each with why (a missing file is not among them).
    public private(set) var skipped: [String] = []

    public init(directory: String) {
        self.directory = directory
    }

    /// The file of `graph`'s hierarchy.
    public func path(for graph: RoadGraph) -> String {
        (directory as NSString).appendingPathComponent(
            "hierarchy-" + String(HierarchyFile.fingerprint(of: graph), radix: 16) + "-\(graph.nodeCount).rch")
    }

    /// `graph`'s hierarchy: read from its file when the file is whole and for this graph, else
    /// built and kept there.
    public func hierarchy(of graph: RoadGraph) -> ContractionHierarchy {
        let file = path(for: graph)
        if let data = FileManager.default.contents(atPath: file) {
            do {
                let hierarchy = try HierarchyFile.decode([UInt8](data), for: graph)
                read += 1
                return hierarchy
            } catch {
                skipped.append("\(file): \(error)")
            }
        }
        let hierarchy = ContractionHierarchy(graph: graph)
        built += 1
        // A store that cannot be written to only costs the next start its time.
        try? Data(HierarchyFile.encode(hierarchy)).write(to: URL(fileURLWithPath: file), options: .atomic)
        return hierarchy
    }
}
