import Foundation

/// A directory of imported road graphs (``RoadGraphFile``), one file per source file and build:
/// every process of a run loads the same city, and every run of a topology too, and all but the
/// first read it here instead of importing the OpenStreetMap file again.
///
/// Files are named by the source's CRC-32 and size and the importer, and written whole under a
/// temporary name then renamed, so a reader never sees half of one and processes starting
/// together may all write it. A missing, damaged or foreign file is imported again and replaced;
/// a directory that cannot be written to only costs each load its import.
public struct RoadGraphStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The file of what `source` imports to.
    public func path(for source: RoadGraphFile.Source) -> String {
        let name = [source.checksum, source.byteCount, source.importer].map { String($0, radix: 16) }.joined(separator: "-")
        return (directory as NSString).appendingPathComponent("roads-\(name).rrg")
    }

    /// The graph of the OpenStreetMap file at `path` as `importer` imports it: read from the
    /// store when a file there is whole and of the same source and build, else imported by
    /// `importing` from the file's contents (read once, for both) and kept. Errors name the file.
    public func graph(
        of path: String, importer: UInt32, importing: (_ contents: Data, _ path: String) throws -> RoadGraph
    ) throws -> (graph: RoadGraph, read: Bool) {
        let contents = try OSMFile.contents(of: path)
        let source = RoadGraphFile.Source(bytes: contents, importer: importer)
        let file = self.path(for: source)
        if let kept = FileManager.default.contents(atPath: file),
            let graph = try? RoadGraphFile.decode([UInt8](kept), from: source)
        {
            return (graph, true)
        }
        let graph = try importing(contents, path)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try? Data(RoadGraphFile.encode(graph, from: source)).write(to: URL(fileURLWithPath: file), options: .atomic)
        CityCache.prune(directory)
        return (graph, false)
    }
}

extension RoadGraphStore {
    /// The store in ``CityCache/directory``, if there is one.
    public static var standard: RoadGraphStore? { CityCache.directory.map(RoadGraphStore.init(directory:)) }
}
