import Foundation
import HummingbirdWSClient
import Logging

/// One page: a WebSocket client of `/live` that notes, for each frame, when it came and the
/// newest event it brings, as a browser's page would receive and parse it.
enum PageClient {
    /// When a frame came (ns, this process's monotonic clock) and the newest event in it.
    struct Arrival: Sendable {
        var atNs: UInt64
        var event: Int
    }

    /// The frame's fields the benchmark reads (the page parses the whole frame all the same).
    private struct Head: Decodable {
        var simSeconds: Double
    }

    /// Reads frames until one brings event `last`; `connected` hears the first frame.
    static func run(url: String, until last: Int, connected: @escaping @Sendable () async -> Void) async throws -> [Arrival] {
        let arrivals = Arrivals()
        var logger = Logger(label: "ribcity-web-bench")
        logger.logLevel = .warning
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 26), logger: logger) {
            inbound, _, _ in
            let decoder = JSONDecoder()
            var first = true
            for try await message in inbound.messages(maxSize: 1 << 26) {
                let now = DispatchTime.now().uptimeNanoseconds
                guard case .text(let text) = message else { continue }
                let head = try decoder.decode(Head.self, from: Data(text.utf8))
                let event = Int((head.simSeconds * 1_000).rounded())
                await arrivals.add(Arrival(atNs: now, event: event))
                if first {
                    first = false
                    await connected()
                }
                if event >= last { return }
            }
        }
        return await arrivals.all
    }

    private actor Arrivals {
        var all: [Arrival] = []
        func add(_ arrival: Arrival) { all.append(arrival) }
    }
}
