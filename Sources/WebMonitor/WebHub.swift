import Foundation
import Wire

/// The web monitor's state, shared by the bus reader and every page: the live city, its
/// metrics, and the run's map. Pages pull frames (what changed since their last), so a slow or
/// stalled page costs nothing but its own connection.
public actor WebHub {
    private var city = LiveCity()
    private let metrics = CityMetrics()
    /// The city's streets and zones, as JSON (made once).
    public nonisolated let mapJSON: Data
    /// The run's name and the clock time of day its simulated time starts at.
    public nonisolated let title: String
    public nonisolated let startSecondOfDay: Double
    /// How many pages are connected now, and frames sent in all.
    public private(set) var pages = 0
    public private(set) var framesSent = 0

    public init(map: CityMap, title: String, startSecondOfDay: Double) {
        let encoder = JSONEncoder()
        mapJSON = (try? encoder.encode(map)) ?? Data("{}".utf8)
        self.title = title
        self.startSecondOfDay = startSecondOfDay
    }

    /// Envelopes from the bus, in the order they came.
    public func apply(_ envelopes: [Envelope]) {
        for envelope in envelopes { city.apply(envelope) }
    }

    /// Dispatch's snapshot, for a web monitor that joined a run under way.
    public func apply(snapshot chunk: SnapshotChunk) {
        city.apply(snapshot: chunk.state, sequenceAt: chunk.sequenceAt, totals: chunk.totals)
    }

    /// The run ended with this summary (`summary.json`).
    public func finish(summary: String) {
        city.finish(summary: summary)
    }

    /// The frame for a page whose last frame was at `since` (0: it has none).
    public func frame(since: UInt64) -> LiveFrame {
        framesSent += 1
        return city.frame(since: since)
    }

    /// The version of the latest change.
    public var version: UInt64 { city.version }

    /// The metrics, in Prometheus's text format.
    public func scrape() -> String {
        metrics.scrape(&city)
    }

    func pageConnected() { pages += 1 }
    func pageLeft() { pages -= 1 }
}
