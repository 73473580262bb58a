/// An imported ``RoadGraph`` as bytes, so that the next process to load the same city reads in
/// a millisecond what took it a tenth of a second or more to import (every process of a run
/// loads the city; whole Manhattan takes seconds).
///
/// The bytes name what they were imported from — the source file's CRC-32 and size, and the
/// importer (the build that imported it) — and carry their own CRC-32; every count, index and
/// value is checked before use. Anything wrong is a ``PackedFileFailure``, never a crash: the
/// caller imports the file instead.
public enum RoadGraphFile {
    static let magic: [UInt8] = Array("RRG1".utf8)
    static let version: UInt32 = 1

    /// What a graph was imported from: the source's bytes, summarised, and the importer.
    public struct Source: Hashable, Sendable {
        public var checksum: UInt32
        public var byteCount: UInt32
        public var importer: UInt32

        /// The source file's `bytes` (as read: an array or `Data`, not copied), imported by
        /// `importer` (a number that changes whenever the import could give another graph: the
        /// build's identity).
        public init(bytes: some Collection<UInt8>, importer: UInt32) {
            checksum = CRC32.of(bytes)
            byteCount = UInt32(truncatingIfNeeded: bytes.count)
            self.importer = importer
        }
    }

    /// The graph as bytes.
    public static func encode(_ graph: RoadGraph, from source: Source) -> [UInt8] {
        var payload = PackedWriter()
        payload.append(array: graph.positions.flatMap { [$0.lat, $0.lon] })
        payload.append(array: graph.edgeStart)
        payload.append(array: graph.edgeTarget)
        payload.append(array: graph.edgeLength)
        payload.append(array: graph.edgeTime)
        payload.append(array: graph.edgeClass.map(\.rawValue))
        return PackedFile.seal(magic: magic, version: version, keys: keys(of: source).map(\.value), payload: payload)
    }

    /// The graph `bytes` hold, imported from `source`, checked whole.
    public static func decode(_ bytes: [UInt8], from source: Source) throws(PackedFileFailure) -> RoadGraph {
        var reader = try PackedFile.open(
            bytes, magic: magic, version: version, keys: keys(of: source), kind: "an imported road graph")
        let coordinates: [Double] = try reader.array()
        let start: [Int32] = try reader.array()
        let target: [Int32] = try reader.array()
        let length: [Float] = try reader.array()
        let time: [Float] = try reader.array()
        let classes: [UInt8] = try reader.array()
        guard reader.remaining == 0 else { throw PackedFileFailure("\(reader.remaining) bytes after the road classes") }
        guard coordinates.count.isMultiple(of: 2) else { throw PackedFileFailure("a node with half a position") }
        let nodes = coordinates.count / 2
        let edges = target.count
        try PackedFile.checkRows(start, entries: edges, nodes: nodes, name: "segments by node")
        guard length.count == edges, time.count == edges, classes.count == edges else {
            throw PackedFileFailure(
                "\(edges) segments with \(length.count) lengths, \(time.count) times, \(classes.count) classes")
        }
        guard target.allSatisfy({ (0..<Int32(nodes)).contains($0) }) else {
            throw PackedFileFailure("a segment to a node out of range")
        }
        guard coordinates.allSatisfy(\.isFinite) else { throw PackedFileFailure("a node without a position") }
        let positions = (0..<nodes).map { GeoPoint(lat: coordinates[2 * $0], lon: coordinates[2 * $0 + 1]) }
        guard length.allSatisfy({ $0.isFinite && $0 >= 0 }), time.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            throw PackedFileFailure("a segment's length or time is negative or not a number")
        }
        let roadClasses = classes.compactMap(RoadClass.init(rawValue:))
        guard roadClasses.count == edges else { throw PackedFileFailure("a road class this build does not know") }
        return RoadGraph(
            positions: positions, edgeStart: start, edgeTarget: target, edgeLength: length, edgeTime: time, edgeClass: roadClasses
        )
    }

    private static func keys(of source: Source) -> [PackedFile.Key] {
        [
            .init(value: source.checksum, mismatch: "imported from another file"),
            .init(value: source.byteCount, mismatch: "imported from a file of another size"),
            .init(value: source.importer, mismatch: "imported by another build"),
        ]
    }
}
