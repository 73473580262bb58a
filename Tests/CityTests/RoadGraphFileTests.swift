import Foundation
import Testing

@testable import City

@Suite("Imported roads kept: a graph read back whole from its file, or refused saying why, and the store that keeps them")
struct RoadGraphFileTests {
    let directory = NSTemporaryDirectory() + "roads-\(UInt64.random(in: 0...UInt64.max))"

    /// Every array of `read` equals `original`'s, bit for bit.
    func expectSame(_ read: RoadGraph, _ original: RoadGraph) {
        #expect(read.positions == original.positions)
        #expect(read.edgeStart == original.edgeStart)
        #expect(read.edgeTarget == original.edgeTarget)
        #expect(read.edgeLength.map(\.bitPattern) == original.edgeLength.map(\.bitPattern))
        #expect(read.edgeTime.map(\.bitPattern) == original.edgeTime.map(\.bitPattern))
        #expect(read.edgeMillis == original.edgeMillis)
        #expect(read.edgeClass == original.edgeClass)
    }

    /// The sample OpenStreetMap file of the import tests, written to `directory`.
    func sampleFile(named name: String = "sample.osm", contents: String = OSMImportTests.sample) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = (directory as NSString).appendingPathComponent(name)
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The file at `path` imported without any store.
    static func imported(_ path: String) throws -> RoadGraph { try RoadNetworkImport(OSMFile.read(path: path), file: path).graph }

    @Test("Encoded and decoded, a graph is the same in every array, and encodes to the same bytes")
    func roundTrip() throws {
        let graph = CityTests.randomGraph(seed: 21, nodes: 80, edges: 300)
        let source = RoadGraphFile.Source(bytes: Array("the source".utf8), importer: 7)
        let bytes = RoadGraphFile.encode(graph, from: source)
        let read = try RoadGraphFile.decode(bytes, from: source)
        expectSame(read, graph)
        #expect(RoadGraphFile.encode(read, from: source) == bytes)
    }

    @Test("Torn, flipped, foreign, of another source file or another build: refused with the reason")
    func damagedRefused() throws {
        let graph = CityTests.randomGraph(seed: 22, nodes: 40, edges: 150)
        let source = RoadGraphFile.Source(bytes: Array("roads".utf8), importer: 1)
        let bytes = RoadGraphFile.encode(graph, from: source)
        func reason(_ bytes: [UInt8], _ source: RoadGraphFile.Source) -> String {
            CityTests.refusal { () throws(PackedFileFailure) in try RoadGraphFile.decode(bytes, from: source) }
        }
        CityTests.expectSealed(bytes, kind: "an imported road graph") { reason($0, source) }
        #expect(reason(bytes, RoadGraphFile.Source(bytes: Array("other".utf8), importer: 1)) == "imported from another file")
        #expect(reason(bytes, RoadGraphFile.Source(bytes: Array("roads".utf8), importer: 2)) == "imported by another build")
    }

    @Test("Bytes whose checksum holds but whose segments point past the nodes are refused, not used")
    func inconsistentRefused() throws {
        let graph = CityTests.randomGraph(seed: 23, nodes: 30, edges: 100)
        let source = RoadGraphFile.Source(bytes: [1, 2, 3], importer: 3)
        let bytes = RoadGraphFile.encode(graph, from: source)
        let header = 4 + 4 + 3 * 4 + 8 + 4
        // The payload: the coordinates (count and values), the row index (count and values), then
        // the targets' count and the first target.
        let firstTarget = header + 8 + graph.nodeCount * 2 * 8 + 8 + (graph.nodeCount + 1) * 4 + 8
        var broken = bytes
        withUnsafeBytes(of: Int32(graph.nodeCount).littleEndian) {
            broken.replaceSubrange(firstTarget..<(firstTarget + 4), with: $0)
        }
        let crc = CRC32.of(broken[header...])
        withUnsafeBytes(of: crc.littleEndian) { broken.replaceSubrange((header - 4)..<header, with: $0) }
        let refusal = #expect(throws: PackedFileFailure.self) { try RoadGraphFile.decode(broken, from: source) }
        #expect(refusal?.description == "a segment to a node out of range")
    }

    @Test("The store imports a city once and reads it after; a damaged file is imported again and replaced")
    func storeKeeps() throws {
        let path = try sampleFile()
        let store = RoadGraphStore(directory: (directory as NSString).appendingPathComponent("kept"))
        let imported = try Self.imported(path)
        let first = try store.graph(of: path, importer: 9, importing: RoadNetworkImport.graph)
        #expect(!first.read)
        let second = try store.graph(of: path, importer: 9, importing: RoadNetworkImport.graph)
        #expect(second.read)
        expectSame(second.graph, imported)
        // Another build imports for itself.
        #expect(try !store.graph(of: path, importer: 10, importing: RoadNetworkImport.graph).read)
        // A damaged file is passed over, and the import written in its place.
        let source = RoadGraphFile.Source(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), importer: 9)
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.path(for: source)))
        let again = try store.graph(of: path, importer: 9, importing: RoadNetworkImport.graph)
        #expect(!again.read)
        expectSame(again.graph, imported)
        #expect(try store.graph(of: path, importer: 9, importing: RoadNetworkImport.graph).read)
    }

    @Test("A source file that changed is imported again; a missing one is the import's error, naming it")
    func storeFollowsTheSource() throws {
        let path = try sampleFile()
        let store = RoadGraphStore(directory: (directory as NSString).appendingPathComponent("kept"))
        _ = try store.graph(of: path, importer: 1, importing: RoadNetworkImport.graph)
        // One road fewer: the file differs, and what was kept for the old one is not read for it.
        let shorter = OSMImportTests.sample.replacingOccurrences(of: "<tag k=\"highway\" v=\"residential\"/>", with: "")
        #expect(shorter != OSMImportTests.sample)
        _ = try sampleFile(contents: shorter)
        let changed = try store.graph(of: path, importer: 1, importing: RoadNetworkImport.graph)
        #expect(!changed.read)
        expectSame(changed.graph, try Self.imported(path))
        let missing = #expect(throws: CityImportError.self) {
            try store.graph(of: directory + "/nowhere.osm", importer: 1, importing: RoadNetworkImport.graph)
        }
        #expect(missing?.file.hasSuffix("nowhere.osm") == true)
    }

    @Test("A store that cannot be written to still loads the city, importing it every time")
    func unwritableStore() throws {
        let path = try sampleFile()
        // A file where the store's directory should be: nothing can be kept under it.
        let blocked = (directory as NSString).appendingPathComponent("blocked")
        try Data().write(to: URL(fileURLWithPath: blocked))
        let store = RoadGraphStore(directory: blocked)
        for _ in 0..<2 {
            let loaded = try store.graph(of: path, importer: 1, importing: RoadNetworkImport.graph)
            #expect(!loaded.read)
            expectSame(loaded.graph, try Self.imported(path))
        }
    }
}
