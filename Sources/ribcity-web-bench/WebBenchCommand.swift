import ArgumentParser
import Foundation
import Histogram
import Topology
import Wire
import ZeroMQ

/// `ribcity-web-bench`: how long an event takes from a process publishing it on the bus to a
/// page receiving it, through the real path — a publisher, the bus proxy, `ribcity-web` (a
/// process of its own) and WebSocket clients reading frames as a browser's page does.
///
/// Each event's simulated time is its number in milliseconds, so a frame's simulated time says
/// which events it brings; an event's latency is the time its first frame reached a page minus
/// the time it was sent. The publisher, the proxy and the clients share this process (and the
/// machine's cores with `ribcity-web`).
@main
struct WebBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribcity-web-bench",
        abstract: "Event latency from the bus to web pages, at given event rates and numbers of pages.",
        discussion: """
            Example (release build):
              .build/release/ribcity-web-bench --rates 10000,100000 --pages 1,10 --seconds 5
            """
    )

    @Option(help: "Events a second published on the bus, one case per rate (comma-separated).")
    var rates = "10000,100000"

    @Option(help: "Pages (WebSocket clients) connected, one case per number (comma-separated).")
    var pages = "1,10"

    @Option(help: "How long each case publishes.")
    var seconds = 5.0

    @Option(help: "Drivers the events are about.")
    var drivers = 5_000

    @Option(help: "The topology whose map the web monitor serves.")
    var topology = "Topologies/downtown.yaml"

    @Option(help: "The port ribcity-web serves on (0: any free one), for a browser to watch the benchmark.")
    var port = 0

    @Option(help: "ribcity-web's --frame-gap-ms.")
    var frameGapMs = 5.0

    @Option(help: "The ribcity-web executable (default: beside this one).")
    var web: String?

    func run() async throws {
        let plan: Topology
        do {
            plan = try TopologyReader.read(path: topology)
        } catch {
            throw ValidationError("\(error)")
        }
        let graph = try plan.city.load()
        let executable = try web ?? Self.beside("ribcity-web")
        let rates = try Self.numbers(self.rates, "--rates")
        let pageCounts = try Self.numbers(self.pages, "--pages")
        print(
            "| events/s | pages | sent | reached every page | frames/s per page | p50 ms | p99 ms | max ms | ribcity-web CPU s |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for rate in rates {
            for pageCount in pageCounts {
                let events = EventStream(drivers: drivers, graph: graph)
                let result = try await WebBenchCase(
                    rate: rate, pages: pageCount, seconds: seconds, topology: topology, web: executable, port: port,
                    frameGapMs: frameGapMs, events: events
                ).run()
                print(result.row)
            }
        }
    }

    static func beside(_ name: String) throws -> String {
        let me = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return (me as NSString).deletingLastPathComponent + "/" + name
    }

    static func numbers(_ list: String, _ option: String) throws -> [Int] {
        let values = list.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !values.isEmpty, values.allSatisfy({ ($0 ?? 0) > 0 }) else {
            throw ValidationError("\(option) takes positive whole numbers separated by commas, not \"\(list)\"")
        }
        return values.compactMap { $0 }
    }
}
