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
        let hub = WebHub(map: CityMap(graph: graph, zoneSize: 500), title: "tiny", startSecondOfDay: 8 * 3_600)
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

    @Test("A page waiting for a change wakes when one comes; a page that leaves stops waiting")
    func wakesOnChange() async {
        let hub = await hub()
        let version = await hub.version
        let waiting = Task {
            await hub.changed(after: version)
            return await hub.version
        }
        var bus = Bus()
        bus.dispatch = SequenceStamper(sender: "dispatch-bus", startingAfter: 5)
        await hub.apply([bus.event(.requestCreated, at: 200) { $0.requestID = "r-2" }])
        #expect(await waiting.value == version + 1)
        let leaving = Task { await hub.changed(after: version + 1) }
        leaving.cancel()
        await leaving.value
    }

    @Test("The page, the map and the state are served")
    func pages() async throws {
        let app = WebServer.application(hub: await hub(), port: 0)
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<canvas id=\"map\">"))
            }
            try await client.execute(uri: "/map.json", method: .get) { response in
                let map = try JSONDecoder().decode(CityMap.self, from: Data(buffer: response.body))
                #expect(map.streets.count == 80)
            }
            try await client.execute(uri: "/state.json", method: .get) { response in
                let frame = try JSONDecoder().decode(LiveFrame.self, from: Data(buffer: response.body))
                #expect(frame.full && frame.kpis.completed == 1 && frame.drivers.map(\.id) == ["d-1"])
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
