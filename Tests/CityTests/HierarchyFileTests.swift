import Foundation
import Testing

@testable import City

@Suite("Hierarchy files: a built hierarchy read back whole, or refused saying why")
struct HierarchyFileTests {
    let directory = NSTemporaryDirectory() + "hierarchies-\(UInt64.random(in: 0...UInt64.max))"

    /// Every pair's time and route from `read` equal `built`'s.
    func expectSameAnswers(_ read: ContractionHierarchy, _ built: ContractionHierarchy) {
        let (a, b) = (HierarchyQuery(hierarchy: read), HierarchyQuery(hierarchy: built))
        for start in 0..<built.graph.nodeCount {
            for end in 0..<built.graph.nodeCount {
                #expect(a.travelTime(from: start, to: end) == b.travelTime(from: start, to: end), "\(start) → \(end)")
                #expect(a.route(from: start, to: end)?.nodes == b.route(from: start, to: end)?.nodes, "\(start) → \(end)")
            }
        }
    }

    @Test("CRC32 is zlib's: the check value of \"123456789\", and continuing equals the whole")
    func crc32() {
        let bytes = Array("123456789".utf8)
        #expect(CRC32.of(bytes) == 0xCBF4_3926)
        #expect(CRC32.of(bytes[4...], continuing: CRC32.of(bytes[..<4])) == 0xCBF4_3926)
    }

    @Test("Encoded and decoded, a hierarchy answers every pair as the one built, and encodes to the same bytes")
    func roundTrip() throws {
        let graph = CityTests.randomGraph(seed: 11, nodes: 60, edges: 220)
        let built = ContractionHierarchy(graph: graph)
        let bytes = HierarchyFile.encode(built)
        let read = try HierarchyFile.decode(bytes, for: graph)
        #expect(HierarchyFile.encode(read) == bytes)
        #expect(read.shortcutCount == built.shortcutCount && read.labelEntryCount == built.labelEntryCount)
        expectSameAnswers(read, built)
    }

    @Test("Torn, flipped, foreign, of other roads or of other weights: refused with the reason")
    func damagedRefused() throws {
        let graph = CityTests.randomGraph(seed: 12, nodes: 40, edges: 150)
        let bytes = HierarchyFile.encode(ContractionHierarchy(graph: graph))
        func reason(_ bytes: [UInt8], _ graph: RoadGraph) -> String {
            CityTests.refusal { () throws(PackedFileFailure) in try HierarchyFile.decode(bytes, for: graph) }
        }
        CityTests.expectSealed(bytes, kind: "a hierarchy file") { reason($0, graph) }
        let other = CityTests.randomGraph(seed: 13, nodes: 40, edges: 150)
        #expect(reason(bytes, other) == "built on other roads or other travel times")
        let slower = graph.withEdgeTimes(graph.edgeTime.map { $0 * 1.5 })
        #expect(reason(bytes, slower) == "built on other roads or other travel times")
    }

    @Test("Bytes whose checksum holds but whose numbering or rows are wrong are refused, not used")
    func inconsistentRefused() throws {
        let graph = CityTests.randomGraph(seed: 14, nodes: 30, edges: 100)
        let bytes = HierarchyFile.encode(ContractionHierarchy(graph: graph))
        let header = 4 + 4 + 4 + 4 + 8 + 4
        // The payload: the shortcut count, then the slots' count and the first slot.
        var broken = bytes
        let firstSlot = header + 4 + 8
        broken[firstSlot] = 0xFF
        broken[firstSlot + 1] = 0xFF
        // The checksum made to match, as a writer with a bug would.
        let crc = CRC32.of(broken[header...])
        withUnsafeBytes(of: crc.littleEndian) { broken.replaceSubrange((header - 4)..<header, with: $0) }
        let refusal = #expect(throws: HierarchyFile.Failure.self) { try HierarchyFile.decode(broken, for: graph) }
        #expect(refusal?.description.contains("numbering") == true, "\(String(describing: refusal))")
    }

    @Test(
        "A node's arcs are found by a binary search, as a scan finds them, in every table a hierarchy builds; arcs out of order are told apart, so that a file with them is refused"
    )
    func arcLookup() throws {
        let graph = CityTests.randomGraph(seed: 15, nodes: 50, edges: 200)
        let hierarchy = ContractionHierarchy(graph: graph)
        for table in [hierarchy.up, hierarchy.down] {
            #expect(table.isOrdered)
            for node in 0..<graph.nodeCount {
                for other in 0..<graph.nodeCount {
                    let scanned = table.range(of: node).first { Int(table.arcs[$0].node) == other }
                    #expect(table.arc(of: node, other: other) == scanned, "\(node) → \(other)")
                }
            }
        }
        let swapped = ArcTable(
            first: [0, 2, 2], arcs: [NodeTime(node: 1, millis: 5), NodeTime(node: 0, millis: 7)], via: [-1, -1])
        #expect(!swapped.isOrdered)
        let twice = ArcTable(
            first: [0, 2, 2], arcs: [NodeTime(node: 1, millis: 5), NodeTime(node: 1, millis: 7)], via: [-1, -1])
        #expect(!twice.isOrdered)
        #expect(ArcTable(first: [0, 0, 0], arcs: [], via: []).isOrdered)
    }

    @Test(
        "Every shortcut's halves are found by number: from its start down into the node it skips, and from there up to its end, their times adding up to its own; a hierarchy whose shortcut has no such halves is refused"
    )
    func shortcutHalves() throws {
        let graph = CityTests.randomGraph(seed: 16, nodes: 60, edges: 240)
        let hierarchy = ContractionHierarchy(graph: graph)
        var shortcuts = 0
        for (table, halves, upward) in [(hierarchy.up, hierarchy.upHalves, true), (hierarchy.down, hierarchy.downHalves, false)] {
            for row in 0..<graph.nodeCount {
                for arc in table.range(of: row) where table.via[arc] >= 0 {
                    shortcuts += 1
                    let via = Int(table.via[arc])
                    let (from, to) = upward ? (row, Int(table.arcs[arc].node)) : (Int(table.arcs[arc].node), row)
                    let (first, second) = (halves.first(of: arc), halves.second(of: arc))
                    #expect(hierarchy.down.range(of: via).contains(first) && Int(hierarchy.down.arcs[first].node) == from)
                    #expect(hierarchy.up.range(of: via).contains(second) && Int(hierarchy.up.arcs[second].node) == to)
                    #expect(hierarchy.down.arcs[first].millis + hierarchy.up.arcs[second].millis == table.arcs[arc].millis)
                }
            }
        }
        #expect(shortcuts > 0)
        // A road segment of the upward table made to claim it skips a node it has no halves through.
        let up = hierarchy.up
        let segment = try #require((0..<up.count).first { up.via[$0] < 0 })
        let row = try #require((0..<graph.nodeCount).first { up.range(of: $0).contains(segment) })
        let end = Int(up.arcs[segment].node)
        let stranger = try #require(
            (0..<graph.nodeCount).first { node in
                node > row && (hierarchy.down.arc(of: node, other: row) == nil || hierarchy.up.arc(of: node, other: end) == nil)
            })
        var via = up.via
        via[segment] = Int32(stranger)
        let broken = ContractionHierarchy(
            graph: graph, slot: hierarchy.slot, node: hierarchy.node, up: ArcTable(first: up.first, arcs: up.arcs, via: via),
            down: hierarchy.down, labels: hierarchy.labels, shortcutCount: hierarchy.shortcutCount)
        #expect(broken == nil)
    }

    @Test("A store builds and keeps a hierarchy, reads it on the next start, and rebuilds a damaged file saying why")
    func storeKeepsAndReads() throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let graph = CityTests.randomGraph(seed: 15, nodes: 50, edges: 180)
        let first = HierarchyStore(directory: directory)
        let built = first.hierarchy(of: graph)
        #expect(first.built == 1 && first.read == 0 && FileManager.default.fileExists(atPath: first.path(for: graph)))

        let second = HierarchyStore(directory: directory)
        let read = second.hierarchy(of: graph)
        #expect(second.read == 1 && second.built == 0 && second.skipped.isEmpty)
        expectSameAnswers(read, built)

        try Data("garbage".utf8).write(to: URL(fileURLWithPath: first.path(for: graph)))
        let third = HierarchyStore(directory: directory)
        expectSameAnswers(third.hierarchy(of: graph), built)
        #expect(third.built == 1 && third.skipped.count == 1 && third.skipped[0].contains("not a hierarchy file"))
        #expect(HierarchyStore(directory: directory).hierarchy(of: graph).shortcutCount == built.shortcutCount)

        // A schedule of posted speeds reads it too.
        let store = HierarchyStore(directory: directory)
        _ = TravelTimeSchedule(postedSpeedsOn: graph, store: store)
        #expect(store.read == 1)
    }
}
