import Foundation
import Testing

@testable import City

/// `../shared/data` beside the repository, where the real extracts live (present in CI).
let sharedData = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/data")

@Suite("OpenStreetMap import")
struct OSMImportTests {
    /// A one-way triangle 1→2→3→1 with a two-way spur 3–4, a footway 4–5, a private road 5–6,
    /// a residential street 7–8 cut off from the rest, and a way naming a node that is missing.
    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
          <node id="1" lat="40.7000" lon="-74.0000"/>
          <node id="2" lat="40.7010" lon="-74.0000"/>
          <node id="3" lat="40.7005" lon="-73.9990"/>
          <node id="4" lat="40.7005" lon="-73.9980"/>
          <node id="5" lat="40.7005" lon="-73.9970"/>
          <node id="6" lat="40.7005" lon="-73.9960"/>
          <node id="7" lat="40.7100" lon="-74.0100"/>
          <node id="8" lat="40.7110" lon="-74.0100"/>
          <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="1"/>
            <tag k="highway" v="secondary"/><tag k="oneway" v="yes"/><tag k="maxspeed" v="25 mph"/></way>
          <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="residential"/></way>
          <way id="12"><nd ref="4"/><nd ref="5"/><tag k="highway" v="footway"/></way>
          <way id="13"><nd ref="5"/><nd ref="6"/><tag k="highway" v="service"/><tag k="access" v="private"/></way>
          <way id="14"><nd ref="7"/><nd ref="8"/><tag k="highway" v="residential"/></way>
          <way id="15"><nd ref="4"/><nd ref="99"/><tag k="highway" v="residential"/></way>
          <way id="16"><nd ref="1"/><nd ref="4"/><tag k="building" v="yes"/></way>
        </osm>
        """

    @Test("Drivable ways, one-way rules and the largest strongly connected part")
    func importRules() throws {
        let osm = try OSMXMLReader.parse(Data(Self.sample.utf8), file: "sample.osm")
        #expect(osm.ways.count == 6, "only highway ways are kept")
        let network = try RoadNetworkImport(osm, file: "sample.osm")
        #expect(network.report.highwayWays == 6)
        #expect(network.report.drivableWays == 4)
        #expect(network.report.missingNodeRefs == 1)
        #expect(network.report.nodesBeforeComponent == 6)
        #expect(network.graph.nodeCount == 4, "the triangle and the spur; 7–8 is cut off")
        #expect(network.graph.edgeCount == 3 + 2)
        // 25 mph on the triangle.
        let triangleSpeeds = (0..<network.graph.edgeCount).map {
            Double(network.graph.edgeLength[$0] / network.graph.edgeTime[$0]) * 3.6
        }
        #expect(triangleSpeeds.filter { abs($0 - 40.2336) < 0.01 }.count == 3)
        #expect(triangleSpeeds.filter { abs($0 - 25) < 0.01 }.count == 2)
    }

    /// Two OSM nodes may share a position; the segment between them has length and time 0. The
    /// largest-part rebuild once re-derived speed as 0/0 and gave it a travel time of NaN.
    @Test("A zero-length segment keeps a travel time of 0 through the import")
    func zeroLengthSegment() throws {
        let xml = """
            <osm>
              <node id="1" lat="40.7000" lon="-74.0000"/>
              <node id="2" lat="40.7000" lon="-74.0000"/>
              <node id="3" lat="40.7010" lon="-74.0000"/>
              <way id="9"><nd ref="1"/><nd ref="2"/><nd ref="3"/><tag k="highway" v="residential"/></way>
            </osm>
            """
        let network = try RoadNetworkImport(try OSMXMLReader.parse(Data(xml.utf8), file: "same.osm"), file: "same.osm")
        #expect(network.graph.nodeCount == 3)
        #expect(network.graph.edgeTime.allSatisfy { $0.isFinite })
        #expect(network.graph.edgeTime.filter { $0 == 0 }.count == 2)
        #expect(PathFinder(graph: network.graph).travelTime(from: 0, to: 2).map { $0 > 0 } == true)
    }

    @Test("One-way, roundabout and speed tags")
    func tags() {
        #expect(RoadNetworkImport.rule(for: ["highway": "primary", "oneway": "-1"])?.backward == true)
        #expect(RoadNetworkImport.rule(for: ["highway": "primary", "oneway": "-1"])?.forward == false)
        #expect(RoadNetworkImport.rule(for: ["highway": "primary", "junction": "roundabout"])?.backward == false)
        #expect(RoadNetworkImport.rule(for: ["highway": "motorway"])?.backward == false)
        #expect(RoadNetworkImport.rule(for: ["highway": "cycleway"]) == nil)
        #expect(RoadNetworkImport.parseSpeed("50") == 50)
        #expect(RoadNetworkImport.parseSpeed("30 km/h") == 30)
        #expect(RoadNetworkImport.parseSpeed("signals") == nil)
        #expect(RoadNetworkImport.rule(for: ["highway": "residential", "maxspeed": "none"])?.speedKmh == 25)
    }

    @Test("Bad input is a clear error naming the file and what is wrong")
    func errors() throws {
        let notOSM = #expect(throws: CityImportError.self) {
            try OSMXMLReader.parse(Data("<html><body/></html>".utf8), file: "page.html")
        }
        #expect(notOSM?.description == "page.html:1: not OpenStreetMap XML: the root element is <html>, not <osm>")

        let broken = #expect(throws: CityImportError.self) {
            try OSMXMLReader.parse(Data("<osm>\n<node id=\"1\" lat=\"40\" lon=\"-74\">\n</osm>".utf8), file: "broken.osm")
        }
        #expect(broken?.file == "broken.osm")
        #expect(broken?.reason.contains("not well-formed XML") == true)

        let badNode = #expect(throws: CityImportError.self) {
            try OSMXMLReader.parse(Data("<osm>\n\n<node id=\"1\" lat=\"91\" lon=\"0\"/></osm>".utf8), file: "range.osm")
        }
        #expect(badNode?.line == 3)

        let footways =
            "<osm><node id=\"1\" lat=\"40\" lon=\"-74\"/><node id=\"2\" lat=\"40.001\" lon=\"-74\"/>"
            + "<way id=\"3\"><nd ref=\"1\"/><nd ref=\"2\"/><tag k=\"highway\" v=\"footway\"/></way></osm>"
        let osm = try OSMXMLReader.parse(Data(footways.utf8), file: "paths.osm")
        let none = #expect(throws: CityImportError.self) { try RoadNetworkImport(osm, file: "paths.osm") }
        #expect(none?.reason.hasPrefix("no drivable roads") == true)

        let missing = #expect(throws: CityImportError.self) { try OSMXMLReader.read(path: "/nonexistent/city.osm") }
        #expect(missing?.reason.contains("cannot be read") == true)

        let text = FileManager.default.temporaryDirectory.appendingPathComponent("notes-\(UUID().uuidString.prefix(6)).osm")
        try "hello world\n".write(to: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: text) }
        let plain = #expect(throws: CityImportError.self) { try OSMFile.read(path: text.path) }
        #expect(
            plain?.description
                == "\(text.lastPathComponent): neither OSM XML nor PBF (it begins with \"hello wo\"; XML begins with <, PBF with a block header)"
        )
    }

    /// The sample document above, gzip-compressed.
    static let sampleGzip = Data(
        base64Encoded:
            "H4sIAAAAAAACA52UTW6DMBBG9zmFNfuAzT8SkF1P0B7AxdPEKtgRpjS5fXHSNCaEVMqO0ff8PB4sF5tD25ABOyO1KoF5FAiqWguptiW8vb6sM9hUq0Kb9kpRL4FqRUihtEAixbgOSMP7EiLqpZSOjsZy6zTyqC39KR24NPuPDifu+I8OvTzPZ3T0gM5mdPyATmd08oBOZnTq0Gw6EzY/ZebSbIH+5sfzuClUhRKkww87e/9aBG4RugU7O0ZLz7fks4Sd3O5GIZChBIO1VoJ3R7viN9cKL/ERjRO0/GD2iOIUBTFp9zub+iM97ZLBQi+RY3Pb6NBIgaqXvLlvDOBGciniBeOH1r39vmsL4UZwKZIFm8FukDU6Ka9rNOYU7js58B7vbxU5W6XuVtmzo4iXRpHnzyqTpVvl/q/3L9nY18G9GGdV4Y+vRPUD5E/nXVIEAAA="
    )!

    @Test("Gzip files are read whole, and a truncated one is an error, not a crash")
    func gzipFiles() throws {
        let directory = FileManager.default.temporaryDirectory
        let whole = directory.appendingPathComponent("ribcity-sample-\(getpid()).osm.gz")
        let cut = directory.appendingPathComponent("ribcity-cut-\(getpid()).osm.gz")
        try Self.sampleGzip.write(to: whole)
        try Self.sampleGzip.prefix(Self.sampleGzip.count / 2).write(to: cut)
        defer {
            try? FileManager.default.removeItem(at: whole)
            try? FileManager.default.removeItem(at: cut)
        }
        #expect(try OSMXMLReader.read(path: whole.path).ways.count == 6)
        let error = #expect(throws: CityImportError.self) { try OSMXMLReader.read(path: cut.path) }
        #expect(error?.reason.contains("truncated") == true)
        #expect(error?.file == cut.lastPathComponent)
    }

    @Test(
        "The real southern-Manhattan extract imports into one connected network",
        .enabled(
            if: FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("manhattan-south-roads.osm.gz").path)))
    func manhattan() throws {
        let path = sharedData.appendingPathComponent("manhattan-south-roads.osm.gz").path
        let osm = try OSMXMLReader.read(path: path)
        #expect(osm.nodes.count == 78_837)
        #expect(osm.ways.count == 26_183)
        let network = try RoadNetworkImport(osm, file: "manhattan-south-roads.osm.gz")
        #expect(network.graph.nodeCount > 5_000)
        #expect(network.report.nodesKept <= network.report.nodesBeforeComponent)
        let finder = PathFinder(graph: network.graph)
        let last = network.graph.nodeCount - 1
        #expect(finder.travelTime(from: 0, to: last) != nil, "strongly connected: every node reaches every other")
        #expect(finder.travelTime(from: last, to: 0) != nil)
    }
}
