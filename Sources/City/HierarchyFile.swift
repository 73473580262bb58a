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
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The CRC-32 of what a hierarchy depends on: the nodes and each segment's ends and time.
    public static func fingerprint(of graph: RoadGraph) -> UInt32 {
        var crc = CRC32.of([UInt32(truncatingIfNeeded: graph.nodeCount)])
        crc = CRC32.of(graph.edgeStart, continuing: crc)
        crc = CRC32.of(graph.edgeTarget, continuing: crc)
        return CRC32.of(graph.edgeMillis, continuing: crc)
    }

    /// The hierarchy as bytes.
    public static func encode(_ hierarchy: ContractionHierarchy) -> [UInt8] {
        var payload: [UInt8] = []
        append(UInt32(truncatingIfNeeded: hierarchy.shortcutCount), to: &payload)
        append(array: hierarchy.slot, to: &payload)
        append(array: hierarchy.node, to: &payload)
        for table in [hierarchy.up, hierarchy.down] {
            append(array: table.first, to: &payload)
            append(array: table.arcs, to: &payload)
            append(array: table.via, to: &payload)
        }
        for labels in [hierarchy.labels.outgoing, hierarchy.labels.incoming] {
            append(array: labels.first, to: &payload)
            append(array: labels.entries, to: &payload)
        }
        var bytes = magic
        append(version, to: &bytes)
        append(fingerprint(of: hierarchy.graph), to: &bytes)
        append(UInt32(truncatingIfNeeded: hierarchy.graph.nodeCount), to: &bytes)
        append(UInt64(payload.count), to: &bytes)
        append(CRC32.of(payload), to: &bytes)
        return bytes + payload
    }

    /// The hierarchy `bytes` hold for `graph`, checked whole.
    public static func decode(_ bytes: [UInt8], for graph: RoadGraph) throws(Failure) -> ContractionHierarchy {
        var reader = Reader(bytes: bytes)
        guard (try? reader.bytes(magic.count)) == magic else { throw Failure("not a hierarchy file (no RCH1 header)") }
        let version: UInt32 = try reader.value()
        guard version == Self.version else { throw Failure("format \(version), this build reads \(Self.version)") }
        guard try reader.value(UInt32.self) == fingerprint(of: graph) else {
            throw Failure("built on other roads or other travel times")
        }
        let count = graph.nodeCount
        guard try reader.value(UInt32.self) == UInt32(truncatingIfNeeded: count) else { throw Failure("another node count") }
        let length: UInt64 = try reader.value()
        let checksum: UInt32 = try reader.value()
        guard UInt64(reader.remaining) == length else { throw Failure("torn: \(reader.remaining) payload bytes of \(length)") }
        guard CRC32.of(bytes[reader.offset...]) == checksum else { throw Failure("its checksum does not match") }

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
            try checkRows(first, entries: arcs.count, nodes: count, name: name + " arcs")
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
            try checkRows(first, entries: entries.count, nodes: count, name: name + " labels")
            guard entries.allSatisfy({ (0..<Int32(count)).contains($0.node) }) else {
                throw Failure("\(name) labels: a hub out of range")
            }
            labels.append(HubLabels.Labels(first: first, entries: entries))
        }
        guard reader.remaining == 0 else { throw Failure("\(reader.remaining) bytes after the labels") }
        return ContractionHierarchy(
            graph: graph, slot: slot, node: node, up: tables[0], down: tables[1],
            labels: HubLabels(outgoing: labels[0], incoming: labels[1]), shortcutCount: Int(shortcuts))
    }

    /// A row index: one start per node and one past the end, from 0, never going back, ending at `entries`.
    private static func checkRows(_ first: [Int32], entries: Int, nodes: Int, name: String) throws(Failure) {
        guard first.count == nodes + 1, first.first == 0, first.last == Int32(truncatingIfNeeded: entries) else {
            throw Failure("\(name): an index of \(first.count) rows for \(nodes) nodes and \(entries) entries")
        }
        for index in 1..<first.count where first[index] < first[index - 1] {
            throw Failure("\(name): row \(index - 1) ends before it starts")
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private static func append<T: BitwiseCopyable>(array: [T], to bytes: inout [UInt8]) {
        append(UInt64(array.count), to: &bytes)
        array.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Reads values and arrays in the order ``encode(_:)`` wrote them, each read checked against what is left.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func bytes(_ count: Int) throws(Failure) -> [UInt8] {
            guard count >= 0, count <= remaining else { throw Failure("ends early, at byte \(offset)") }
            defer { offset += count }
            return Array(bytes[offset..<(offset + count)])
        }

        mutating func value<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(Failure) -> T {
            let raw = try bytes(MemoryLayout<T>.size)
            return T(littleEndian: raw.withUnsafeBytes { $0.loadUnaligned(as: T.self) })
        }

        mutating func array<T: BitwiseCopyable>() throws(Failure) -> [T] {
            let count: UInt64 = try value()
            let stride = MemoryLayout<T>.stride
            guard count <= UInt64(remaining / stride) else { throw Failure("an array of \(count) longer than the file") }
            let size = Int(count) * stride
            guard size > 0 else { return [] }
            let start = offset
            offset += size
            return [T](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
                bytes.withUnsafeBytes { raw in
                    UnsafeMutableRawBufferPointer(buffer).copyMemory(
                        from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + size)]))
                }
                initialized = Int(count)
            }
        }
    }
}
