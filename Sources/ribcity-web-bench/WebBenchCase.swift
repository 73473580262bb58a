import Foundation
import Histogram
import Wire
import ZeroMQ

/// One case of the benchmark: `rate` events a second for `seconds` through the bus proxy to a
/// `ribcity-web` process, read by `pages` clients.
struct WebBenchCase {
    let rate: Int
    let pages: Int
    let seconds: Double
    let topology: String
    let web: String
    let port: Int
    let frameGapMs: Double
    let events: EventStream

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    struct Result {
        let row: String
    }

    func run() async throws -> Result {
        let count = Int(Double(rate) * seconds)
        let messages = events.messages(count)
        let base = NSTemporaryDirectory() + "ribcity-web-bench-\(getpid())"
        let (busIn, busOut) = ("ipc://\(base)-in", "ipc://\(base)-out")
        let transport = try Transport(name: "bench-io")
        let proxy = try await Proxy.start(
            on: transport, frontend: .init(.xsub, bind: busIn, options: .eventBus),
            backend: .init(.xpub, bind: busOut, options: .eventBus))
        let server = try WebProcess(
            executable: web,
            arguments: [
                "--topology", topology, "--port", String(port), "--frame-gap-ms", String(frameGapMs), "--bus", busOut,
                "--publish-to", busIn, "--sessions",
                "ipc://\(base)-nobody",
            ], output: base + "-web.out")
        defer { server.stop() }
        let port = try await server.port()
        let publisher = try await transport.socket(.pub, options: .eventBus)
        try await publisher.connect(busIn)
        // The web monitor's subscription reaches this publisher through the proxy.
        try await Task.sleep(for: .milliseconds(500))

        let gate = Gate()
        let received = (0..<pages).map { _ in PageClient.Arrivals() }
        let clients = received.map { arrivals in
            Task {
                try await PageClient.run(url: "ws://127.0.0.1:\(port)/live", until: count, into: arrivals) { await gate.arrive() }
            }
        }
        guard await gate.wait(for: pages, within: .seconds(10)) else {
            clients.forEach { $0.cancel() }
            throw Failed(description: "\(pages) pages did not all get their first frame within 10 s")
        }
        let cpuBefore = server.cpuSeconds()
        let ownCPUBefore = ProcessUsage.current().cpuSeconds
        var sent = [UInt64](repeating: 0, count: count + 1)
        let start = DispatchTime.now().uptimeNanoseconds
        var next = 0
        while next < count {
            let now = DispatchTime.now().uptimeNanoseconds
            let due = min(count, Int(Double(now - start) * Double(rate) / 1e9) + 1)
            if due > next {
                try await publisher.send(contentsOf: Array(messages[next..<due]))
                for k in next..<due { sent[k + 1] = now }
                next = due
            } else {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        let published = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Whatever has not reached a page two seconds after the last event never will.
        let deadline = Task {
            try await Task.sleep(for: .seconds(2))
            clients.forEach { $0.cancel() }
        }
        var arrivals: [[PageClient.Arrival]] = []
        for (client, page) in zip(clients, received) {
            _ = try? await client.value
            arrivals.append(await page.all)
        }
        deadline.cancel()
        let cpu = server.cpuSeconds() - cpuBefore
        let ownCPU = ProcessUsage.current().cpuSeconds - ownCPUBefore
        await publisher.close()
        await proxy.stop()
        await transport.shutdown()

        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000)
        var reachedEvery = count
        var frames = 0
        var bytes = 0
        for page in arrivals {
            var seen = 0
            for arrival in page where arrival.event > seen {
                for k in (seen + 1)...min(arrival.event, count) where sent[k] > 0 {
                    latency.record((arrival.atNs &- sent[k]) / 1_000)
                }
                seen = arrival.event
                frames += 1
                bytes += arrival.bytes
            }
            reachedEvery = min(reachedEvery, seen)
        }
        let ms = { (quantile: Double) in String(format: "%.1f", Double(latency.valueAtPercentile(quantile)) / 1_000) }
        let row =
            "| \(rate) (sent at \(Int(Double(count) / published))) | \(pages) | \(count) | \(reachedEvery) | "
            + String(format: "%.0f", Double(frames) / Double(max(1, pages)) / published)
            + " | \(ms(50)) | \(ms(99)) | " + String(format: "%.1f", Double(latency.max) / 1_000)
            + " | " + String(format: "%.1f", Double(bytes) / Double(max(1, frames)) / 1_000) + " | "
            + String(format: "%.1f", cpu) + " | " + String(format: "%.1f", ownCPU) + " |"
        return Result(row: row)
    }

    /// Counts the pages that got their first frame.
    actor Gate {
        private var arrived = 0

        func arrive() { arrived += 1 }

        func wait(for pages: Int, within limit: Duration) async -> Bool {
            let end = ContinuousClock.now + limit
            while arrived < pages {
                if ContinuousClock.now > end { return false }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return true
        }
    }
}
