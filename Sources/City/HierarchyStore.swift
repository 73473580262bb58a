import Foundation

/// A directory of built hierarchies (``HierarchyFile``), one file per road graph and weights (and
/// build, in the city cache): a process that starts again, or the next run of the city, reads
/// its hierarchies here instead of contracting its roads again.
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

    /// The build whose hierarchies these are, in a store that builds share
    /// (``CityCache/directory``): another build may contract the same roads into another hierarchy, which finds
    /// the same times but may choose another of two equally fast routes — a run must not depend
    /// on which build contracted before it. `nil`: a store of one run (its directory).
    public let build: UInt32?

    public init(directory: String, build: UInt32? = nil) {
        self.directory = directory
        self.build = build
    }

    /// The file of `graph`'s hierarchy.
    public func path(for graph: RoadGraph) -> String {
        let made = build.map { "-" + String($0, radix: 16) } ?? ""
        return (directory as NSString).appendingPathComponent(
            "hierarchy-" + String(HierarchyFile.fingerprint(of: graph), radix: 16) + "-\(graph.nodeCount)\(made).rch")
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
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? Data(HierarchyFile.encode(hierarchy)).write(to: URL(fileURLWithPath: file), options: .atomic)
        CityCache.prune(directory)
        return hierarchy
    }
}

extension HierarchyStore {
    /// A store in ``CityCache/directory`` for this build's hierarchies, if there is one.
    public static var standard: HierarchyStore? {
        CityCache.directory.map { HierarchyStore(directory: $0, build: CityCache.build) }
    }
}
