import Foundation
import SwiftProtobuf
import Testing

@testable import City

@Suite("OpenStreetMap PBF import")
struct PBFImportTests {
    /// A PBF file built here: a header block and one raw data block with three dense nodes and a
    /// two-way residential street through them.
    static func tinyFile(features: [String] = ["OsmSchema-V0.6", "DenseNodes"]) throws -> Data {
        var head = PBFHeaderBlock()
        head.requiredFeatures = features
        var dense = PBFDenseNodes()
        dense.id = [10, 1, 1]
        // 100-nanodegree units by default: 40.7 N, 74.0 W, then steps of 0.001 degrees east.
        dense.lat = [407_000_000, 0, 0]
        dense.lon = [-740_000_000, 10_000, 10_000]
        var way = PBFWay()
        way.id = 5
        way.keys = [1]
        way.vals = [2]
        way.refs = [10, 1, 1]
        var group = PBFPrimitiveGroup()
        group.dense = dense
        group.ways = [way]
        var block = PBFPrimitiveBlock()
        block.stringtable.s = [Data(), Data("highway".utf8), Data("residential".utf8)]
        block.primitivegroup = [group]
        return try frame("OSMHeader", head.serializedBytes()) + frame("OSMData", block.serializedBytes())
    }

    static func frame(_ type: String, _ payload: Data) throws -> Data {
        var blob = PBFBlob()
        blob.raw = payload
        blob.rawSize = Int32(payload.count)
        let body: Data = try blob.serializedBytes()
        var header = PBFBlobHeader()
        header.type = type
        header.datasize = Int32(body.count)
        let headerBytes: Data = try header.serializedBytes()
        let length = UInt32(headerBytes.count)
        return Data([UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
            + headerBytes + body
    }

    @Test("Dense nodes with delta-coded ids and positions, and ways with tags from the string table")
    func tiny() throws {
        let osm = try OSMPBFReader.parse(Self.tinyFile(), file: "tiny.osm.pbf")
        #expect(osm.nodes.count == 3)
        let first = try #require(osm.nodes[10])
        #expect(abs(first.lat - 40.7) < 1e-9 && abs(first.lon + 74.0) < 1e-9)
        #expect(abs(osm.nodes[12]!.lon + 73.998) < 1e-9)
        #expect(osm.ways.count == 1 && osm.ways[0].nodes == [10, 11, 12] && osm.ways[0].tags == ["highway": "residential"])
        let network = try RoadNetworkImport(osm, file: "tiny.osm.pbf")
        #expect(network.graph.nodeCount == 3 && network.graph.edgeCount == 4)
    }

    @Test("Bad files are clear errors naming the file, block and reason")
    func badFiles() throws {
        let tiny = try Self.tinyFile()
        let cases: [(Data, String)] = [
            (tiny.prefix(tiny.count - 7), "truncated"),
            (Data("this is not a map".utf8), "not an OSM PBF file"),
            (Data(), "empty"),
            (
                try Self.tinyFile(features: ["OsmSchema-V0.6", "Sort.Type_then_ID", "LocationsOnWays"]),
                "requires features this reader lacks: LocationsOnWays, Sort.Type_then_ID"
            ),
        ]
        for (data, expected) in cases {
            let error = #expect(throws: CityImportError.self) { try OSMPBFReader.parse(data, file: "bad.osm.pbf") }
            #expect(error?.file == "bad.osm.pbf")
            #expect(error?.description.contains(expected) == true, "\(String(describing: error)) should say \(expected)")
        }
        var lzma = PBFBlob()
        lzma.lzmaData = Data([1, 2, 3])
        var header = PBFBlobHeader()
        let body: Data = try lzma.serializedBytes()
        header.type = "OSMHeader"
        header.datasize = Int32(body.count)
        let headerBytes: Data = try header.serializedBytes()
        let file = Data([0, 0, 0, UInt8(headerBytes.count)]) + headerBytes + body
        let error = #expect(throws: CityImportError.self) { try OSMPBFReader.parse(file, file: "x.osm.pbf") }
        #expect(error?.reason == "block 0 at byte 0: lzma compression is not supported (zlib or raw blobs are)")
    }

    @Test(
        "The real extract as PBF equals the same extract as XML, node for node and way for way",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("manhattan-south-roads.osm.pbf").path)))
    func realFileMatchesXML() throws {
        let pbf = try OSMFile.read(path: sharedData.appendingPathComponent("manhattan-south-roads.osm.pbf").path)
        let xml = try OSMFile.read(path: sharedData.appendingPathComponent("manhattan-south-roads.osm.gz").path)
        #expect(pbf.nodes.count == 78_837 && pbf.ways.count == 26_183)
        #expect(pbf.nodes.count == xml.nodes.count)
        let worst = pbf.nodes.reduce(0.0) { worst, entry in
            max(worst, xml.nodes[entry.key].map { entry.value.distance(to: $0) } ?? .infinity)
        }
        #expect(worst < 0.02, "positions agree to the 7 decimals of the XML")
        #expect(pbf.ways.map(\.id) == xml.ways.map(\.id))
        #expect(zip(pbf.ways, xml.ways).allSatisfy { $0.nodes == $1.nodes && $0.tags == $1.tags })
        let a = try RoadNetworkImport(pbf, file: "pbf").graph, b = try RoadNetworkImport(xml, file: "xml").graph
        #expect(a.nodeCount == b.nodeCount && a.edgeCount == b.edgeCount && a.edgeMillis == b.edgeMillis)
    }

    @Test("The reader is chosen by the file's first bytes: XML, gzip or PBF")
    func detection() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ribcity-pbf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pbf = directory.appendingPathComponent("named-like-xml.osm")
        try Self.tinyFile().write(to: pbf)
        #expect(try OSMFile.read(path: pbf.path).ways.count == 1)
        let xml = directory.appendingPathComponent("named-like-pbf.osm.pbf")
        try Data("<?xml version='1.0'?><osm version='0.6'></osm>".utf8).write(to: xml)
        #expect(try OSMFile.read(path: xml.path).nodes.isEmpty)
    }
}
