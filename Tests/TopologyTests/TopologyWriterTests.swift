import Foundation
import RideDispatch
import Testing

@testable import Topology

@Suite("resolved.yaml: a topology written out in full reads back as the same topology")
struct TopologyWriterTests {
    @Test("Every shipped topology survives writing and reading back unchanged")
    func shippedTopologiesRoundTrip() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: topologies.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 3)
        for file in files {
            let original = try TopologyReader.read(path: topologies.appendingPathComponent(file).path)
            let text = TopologyWriter.yaml(original)
            let again = try TopologyReader.parse(text, file: original.file, directory: "/")
            #expect(again == original, "\(file):\n\(text)")
            #expect(TopologyWriter.yaml(again) == text)
        }
    }

    @Test("Settings a file leaves out, and ones only the command line sets, are written out")
    func everySettingSpelledOut() throws {
        var topology = try TopologyReader.parse(
            """
            name: "odd: name"
            city: { grid: { width_m: 1000 } }
            drivers: { per_process: 3 }
            riders: { demand: { synthetic: { peak_per_hour: 12.5 } } }
            """, file: "t.yaml", directory: "/")
        topology.dispatch.rebalancing = .towardUnmetDemand(interval: 90, maxMoves: 7)
        topology.startSecondOfDay = 17.5 * 3_600
        topology.curve = true
        let text = TopologyWriter.yaml(topology)
        #expect(text.contains("name: \"odd: name\"\n"))
        #expect(text.contains("start_time: \"17:30\""))
        #expect(text.contains("  rebalancing: { interval_s: 90, max_moves: 7 }\n"))
        #expect(text.contains("  offer_timeout_s: 15\n"))
        #expect(try TopologyReader.parse(text, file: "t.yaml", directory: "/") == topology)
    }
}
