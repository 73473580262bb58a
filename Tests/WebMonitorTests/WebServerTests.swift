import City
import Foundation
import HummingbirdTesting
import Testing
import Wire

@testable import WebMonitor

@Suite("The web monitor's server: page, map, state and metrics")
struct WebServerTests {
    func hub() async -> WebHub {
        let graph = GridCity(width: 1_000, height: 1_000, blockLength: 250, speedKmh: 36).build()
        // No gap between ticks: every change is a tick of its own, whatever the machine's load.
        let hub = WebHub(map: CityMap(graph: graph, zoneSize: 500), title: "tiny", startSecondOfDay: 8 * 3_600, frameGap: .zero)
        var bus = Bus()
        await hub.apply([
            bus.event(.driverStateChanged, at: 1) {
                $0.driverID = "d-1"; $0.driverState = .idle; $0.location = at(40.7, -74)
            },
            bus.event(.requestCreated, at: 5) {
                $0.requestID = "r-1"; $0.location = at(40.70, -74.00)
            },
            bus.event(.offerAccepted, at: 6) {
                $0.requestID = "r-1"; $0.driverID = "d-1"
            },
            bus.event(.tripStarted, at: 70) {
                $0.requestID = "r-1"; $0.pickupWaitS = 64
            },
            bus.event(.tripCompleted, at: 130) {
                $0.requestID = "r-1"; $0.fareCents = 900
            },
        ])
        return hub
    }

    @Test(
        "A new page gets a full frame at once, then each tick's changes, the same for every page; a page behind gets the ticks it missed; a page that leaves stops waiting"
    )
    func pagesGetTicks() async throws {
        let hub = await hub()
        await hub.page(connected: true)
        let first = try #require(await hub.nextFrames(after: nil))
        #expect(first.count == 1 && first[0].json.contains(#""full":true"#))
        let pages = (0..<3).map { _ in Task { await hub.nextFrames(after: first[0].tick) } }
        var bus = Bus()
        bus.dispatch = SequenceStamper(sender: "dispatch-bus", startingAfter: 5)
        // However the pages' tasks and the change interleave, each gets the tick of the change.
        try await Task.sleep(for: .milliseconds(50))
        await hub.apply([bus.event(.requestCreated, at: 200) { $0.requestID = "r-2" }])
        var frames: [[WebHub.PageFrame]] = []
        for page in pages { frames.append(try #require(await page.value)) }
        #expect(frames.allSatisfy { $0 == frames[0] } && frames[0].count == 1 && frames[0][0].tick == first[0].tick + 1)
        #expect(frames[0][0].json.contains(#""full":false"#) && frames[0][0].json.contains("r-2"))
        for second in [210.0, 220] {
            await hub.apply([bus.event(.requestCreated, at: second) { $0.requestID = "r-\(Int(second))" }])
        }
        // Each tick is encoded off the hub's actor: wait for the last to land.
        var behind: [WebHub.PageFrame] = []
        for _ in 0..<500 where behind.count < 3 {
            behind = try #require(await hub.nextFrames(after: first[0].tick))
            if behind.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(behind.map(\.tick) == (1...3).map { first[0].tick + $0 } && behind[0] == frames[0][0])
        #expect(behind[1].json.contains("r-210") && behind[2].json.contains("r-220") && !behind[2].json.contains("r-210"))
        let leaving = Task { await hub.nextFrames(after: behind[2].tick) }
        leaving.cancel()
        #expect(await leaving.value == nil)
    }

    @Test(
        "Pages joining while the city changes and ticks are encoded get a full frame the ticks that follow continue: every notice once, none missing"
    )
    func joiningPagesLineUpWithTicks() async throws {
        let hub = await hub()
        await hub.page(connected: true)
        var bus = Bus()
        bus.dispatch = SequenceStamper(sender: "dispatch-bus", startingAfter: 5)
        var joiners: [Task<[String], any Error>] = []
        let notices = 120
        for index in 0..<notices {
            await hub.apply([bus.notice("notice \(index)", at: 300 + Double(index))])
            if index % 15 == 7 {
                joiners.append(
                    Task {
                        var seen: [String] = []
                        var tick: UInt64?
                        while seen.count < notices {
                            guard let frames = await hub.nextFrames(after: tick) else { break }
                            for frame in frames {
                                let decoded = try JSONDecoder().decode(LiveFrame.self, from: Data(frame.json.utf8))
                                seen += decoded.notices.map(\.text)
                                tick = frame.tick
                            }
                        }
                        return seen
                    })
            }
        }
        for joiner in joiners {
            #expect(try await joiner.value == (0..<notices).map { "notice \($0)" })
        }
    }

    @Test("Every metric the Grafana dashboard in docs/ queries is one /metrics serves")
    func dashboardQueriesServedMetrics() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/grafana/ribcity-dashboard.json")
        let dashboard = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let panels = dashboard?["panels"] as? [[String: Any]] ?? []
        let queries = panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
        #expect(panels.count >= 10 && queries.count > panels.count)
        let hub = await hub()
        var status = SequenceStamper(sender: "drivers-0-status")
        await hub.apply([Envelope(.processStatus(ProcessStatus.with { $0.processID = "drivers-0" }), from: status.next())])
        let served = Set(
            await hub.scrape().split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
                $0.split(whereSeparator: { $0 == "{" || $0 == " " }).first.map(String.init)
            })
        let metric = try Regex(#"ribcity_[a-z_]+"#)
        for query in queries {
            for match in query.matches(of: metric) {
                #expect(served.contains(String(query[match.range])), "\(query[match.range]) in \(query)")
            }
        }
    }

    @Test("/metrics is Prometheus's text format: counters by outcome, the pickup-wait histogram, drivers by state")
    func metrics() async throws {
        let app = WebServer.application(hub: await hub(), port: 0)
        try await app.test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(response.headers[.contentType]?.hasPrefix("text/plain") == true)
                #expect(text.contains(#"ribcity_requests_ended_total{outcome="completed"} 1"#))
                #expect(text.contains("ribcity_requests_total 1"))
                #expect(text.contains(#"ribcity_pickup_wait_seconds_bucket{le="60.0"} 0"#))
                #expect(text.contains(#"ribcity_pickup_wait_seconds_bucket{le="120.0"} 1"#))
                #expect(text.contains("ribcity_pickup_wait_seconds_count 1"))
                #expect(text.contains(#"ribcity_drivers{state="idle"} 1"#))
                for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                    #expect(line.split(separator: " ").count == 2, "sample lines are NAME{LABELS} VALUE: \(line)")
                }
            }
            // A second scrape adds nothing that did not happen.
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains(#"ribcity_requests_ended_total{outcome="completed"} 1"#))
            }
        }
    }
}
