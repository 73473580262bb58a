import Foundation
import HummingbirdWSClient
import Logging

/// One page: a WebSocket client of `/live` that notes, for each frame, when it came whole and
/// the newest event it brings. It reads only the frame's `simSeconds` (a browser parses the whole
/// frame, on its own machine): the benchmark's pages share two cores with everything measured.
enum PageClient {
    /// When a frame came (ns, this process's monotonic clock) and the newest event in it.
    struct Arrival: Sendable {
        var atNs: UInt64
        var event: Int
        var bytes: Int
    }

    /// Reads frames into `arrivals` until one brings event `last`; `connected` hears the first frame.
    static func run(
        url: String, until last: Int, into arrivals: Arrivals, connected: @escaping @Sendable () async -> Void
    ) async throws {
        var logger = Logger(label: "ribcity-web-bench")
        logger.logLevel = .warning
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 26), logger: logger) {
            inbound, _, _ in
            var first = true
            for try await message in inbound.messages(maxSize: 1 << 26) {
                let now = DispatchTime.now().uptimeNanoseconds
                guard case .text(let text) = message else { continue }
                guard let simSeconds = number(after: #""simSeconds":"#, in: text) else { continue }
                let event = Int((simSeconds * 1_000).rounded())
                await arrivals.add(Arrival(atNs: now, event: event, bytes: text.utf8.count))
                if first {
                    first = false
                    await connected()
                }
                if event >= last { return }
            }
        }
    }

    /// The number after `key` in a JSON text.
    static func number(after key: String, in text: String) -> Double? {
        guard let found = text.range(of: key) else { return nil }
        let digits = text[found.upperBound...].prefix {
            $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" || $0 == "E" || $0 == "+"
        }
        return Double(digits)
    }

    /// A page's arrivals, kept when its task is cancelled.
    actor Arrivals {
        private(set) var all: [Arrival] = []
        func add(_ arrival: Arrival) { all.append(arrival) }
    }
}
