import Foundation

/// A ``ContractionHierarchy`` and its labels as bytes, so that a process started again (dispatch
/// restarted from its journal) reads in milliseconds what took it a few tenths of a second of
/// contraction to build.
///
/// The bytes name the road graph they were built on (its nodes, segments and their times, as a
/// CRC-32), so a file is only ever used for the same roads with the same weights; they carry
/// their own CRC-32, and every count and index is checked before use. Anything wrong is an
/// error saying what, never a crash: the caller builds the hierarchy instead. Arrays are stored
/// in the machine's byte order (little-endian on every platform the project builds for).
public enum HierarchyFile {
    static let magic: [UInt8] = Array("RCH1".utf8)
    static let version: UInt32 = 1

    /// Why bytes are not a usable hierarchy for a graph.
    public typealias Failure = PackedFileFailure

    /// The CRC-32 of what a hierarchy depends on: the nodes and each segment's ends and time.
    public static func fingerprint(of graph: RoadGraph) -> UInt32 {
        var crc = CRC32.of([UInt32(truncatingIfNeeded: graph.nodeCount)])
        crc = CRC32.of(graph.edgeStart, continuing: crc)
        crc = CRC32.of(graph.edgeTarget, continuing: crc)
        return CRC32.of(graph.edgeMillis, continuing: crc)
    }

    /// The hierarchy as bytes.
    public static func encode(_ hierarchy: ContractionHierarchy) -> [UInt8] {
        var payload = PackedWriter()
        payload.append(UInt32(truncatingIfNeeded: hierarchy.shortcutCount))
        payload.append(array: hierarchy.slot)
        payload.append(array: hierarchy.node)
        for table in [hierarchy.up, hierarchy.down] {
            payload.append(array: table.first)
            payload.append(array: table.arcs)
            payload.append(array: table.via)
        }
        for labels in [hierarchy.labels.outgoing, hierarchy.labels.incoming] {
            payload.append(array: labels.first)
            payload.append(array: labels.entries)
        }
        return PackedFile.seal(magic: magic, version: version, keys: keys(of: hierarchy.graph).map(\.value), payload: payload)
    }

    /// The hierarchy `bytes` hold for `graph`, checked whole.
    public static func decode(_ bytes: [UInt8], for graph: RoadGraph) throws(Failure) -> ContractionHierarchy {
        let count = graph.nodeCount
        var reader = try PackedFile.open(bytes, magic: magic, version: version, keys: keys(of: graph), kind: "a hierarchy file")

        let shortcuts: UInt32 = try reader.value()
        let slot: [Int32] = try reader.array()
        let node: [Int32] = try reader.array()
        guard slot.count == count, node.count == count else { throw Failure("numbering of \(slot.count) nodes, not \(count)") }
        for road in 0..<count {
            let number = Int(slot[road])
            guard (0..<count).contains(number), node[number] == Int32(road) else {
                throw Failure("node \(road)'s number is not a one-to-one numbering")
            }
        }
        var tables: [ArcTable] = []
        for name in ["upward", "downward"] {
            let first: [Int32] = try reader.array()
            let arcs: [NodeTime] = try reader.array()
            let via: [Int32] = try reader.array()
            try PackedFile.checkRows(first, entries: arcs.count, nodes: count, name: name + " arcs")
            guard via.count == arcs.count else {
                throw Failure("\(name) arcs: \(via.count) shortcut middles for \(arcs.count) arcs")
            }
            guard arcs.allSatisfy({ (0..<Int32(count)).contains($0.node) }), via.allSatisfy({ (-1..<Int32(count)).contains($0) })
            else { throw Failure("\(name) arcs: a node out of range") }
            let table = ArcTable(first: first, arcs: arcs, via: via)
            guard table.isOrdered else {
                throw Failure("\(name) arcs: a node's arcs out of order (or two to the same node)")
            }
            tables.append(table)
        }
        var labels: [HubLabels.Labels] = []
        for name in ["outgoing", "incoming"] {
            let first: [Int32] = try reader.array()
            let entries: [NodeTime] = try reader.array()
            try PackedFile.checkRows(first, entries: entries.count, nodes: count, name: name + " labels")
            guard entries.allSatisfy({ (0..<Int32(count)).contains($0.node) }) else {
                throw Failure("\(name) labels: a hub out of range")
            }
            labels.append(HubLabels.Labels(first: first, entries: entries))
        }
        guard reader.remaining == 0 else { throw Failure("\(reader.remaining) bytes after the labels") }
        guard
            let hierarchy = ContractionHierarchy(
                graph: graph, slot: slot, node: node, up: tables[0], down: tables[1],
                labels: HubLabels(outgoing: labels[0], incoming: labels[1]), shortcutCount: Int(shortcuts))
        else { throw Failure("a shortcut whose halves are not both among the arcs") }
        return hierarchy
    }

    /// What a hierarchy's header names: the roads and weights it was built on, and their node count.
    private static func keys(of graph: RoadGraph) -> [PackedFile.Key] {
        [
            .init(value: fingerprint(of: graph), mismatch: "built on other roads or other travel times"),
            .init(value: UInt32(truncatingIfNeeded: graph.nodeCount), mismatch: "another node count"),
        ]
    }
}
