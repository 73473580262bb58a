import Foundation
import Wire

/// The web monitor's state, shared by the bus reader and every page: the live city, its
/// metrics, and the run's map. Pages are woken by a change and pull a frame of what changed since
/// their last, so a slow or stalled page costs nothing but its own connection.
public actor WebHub {
    private var city = LiveCity()
    private let metrics = CityMetrics()
    /// The city's streets and zones, as JSON (made once).
    public nonisolated let mapJSON: Data
    /// The run's name and the clock time of day its simulated time starts at.
    public nonisolated let title: String
    public nonisolated let startSecondOfDay: Double
    /// Publishes on the bus (inspection requests); nil: this hub cannot ask hosts anything.
    private let publish: (@Sendable (_ topic: String, _ envelope: Envelope) async -> Void)?
    private var inspections: [UInt64: CheckedContinuation<AppInspection?, Never>] = [:]
    private var inspectionStamper = SequenceStamper(sender: "web-inspect")
    /// Pages waiting for the next change, by a number of their own.
    private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter: UInt64 = 0

    /// - Parameter publish: sends an envelope on the bus under a topic (for inspection requests).
    public init(
        map: CityMap, title: String, startSecondOfDay: Double,
        publish: (@Sendable (_ topic: String, _ envelope: Envelope) async -> Void)? = nil
    ) {
        let encoder = JSONEncoder()
        mapJSON = (try? encoder.encode(map)) ?? Data("{}".utf8)
        self.title = title
        self.startSecondOfDay = startSecondOfDay
        self.publish = publish
    }

    /// Envelopes from the bus, in the order they came.
    public func apply(_ envelopes: [Envelope]) {
        for envelope in envelopes {
            if case .appInspection(let answer)? = envelope.body {
                inspections.removeValue(forKey: answer.request)?.resume(returning: answer)
                continue
            }
            city.apply(envelope)
        }
        wakeWaiters()
    }

    /// Returns once the city has changed after `version` (at once if it has), or the task is
    /// cancelled.
    public func changed(after version: UInt64) async {
        guard city.version <= version, !Task.isCancelled else { return }
        let waiter = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiters[waiter] = $0 }
        } onCancel: {
            Task { await self.release(waiter) }
        }
    }

    private func release(_ waiter: UInt64) {
        waiters.removeValue(forKey: waiter)?.resume()
    }

    private func wakeWaiters() {
        guard !waiters.isEmpty else { return }
        let woken = waiters.values
        waiters = [:]
        for waiter in woken { waiter.resume() }
    }

    /// Asks the hosts for app `id`'s live RIB tree: the answer of the host that runs it, or nil
    /// when none answers within `timeout` (no live app of that id: a rider's app lives while its
    /// ride does).
    public func inspect(_ id: String, timeout: Duration = .seconds(3)) async -> AppInspection? {
        guard let publish else { return nil }
        let stamp = inspectionStamper.next()
        let request = InspectApp.with {
            $0.appID = id
            $0.request = stamp.sequence
        }
        return await withCheckedContinuation { continuation in
            inspections[stamp.sequence] = continuation
            Task {
                await publish(Topic.inspectRequest, Envelope(.inspectApp(request), from: stamp))
                try? await Task.sleep(for: timeout)
                self.expire(stamp.sequence)
            }
        }
    }

    private func expire(_ request: UInt64) {
        inspections.removeValue(forKey: request)?.resume(returning: nil)
    }

    /// Dispatch's snapshot, for a web monitor that joined a run under way.
    public func apply(snapshot chunk: SnapshotChunk) {
        city.apply(snapshot: chunk.state, sequenceAt: chunk.sequenceAt, totals: chunk.totals)
        wakeWaiters()
    }

    /// The run ended with this summary (`summary.json`).
    public func finish(summary: String) {
        city.finish(summary: summary)
        wakeWaiters()
    }

    /// The frame for a page whose last frame was at `since` (0: it has none).
    public func frame(since: UInt64) -> LiveFrame {
        city.frame(since: since)
    }

    /// The version of the latest change.
    public var version: UInt64 { city.version }

    /// The metrics, in Prometheus's text format.
    public func scrape() -> String {
        metrics.scrape(&city)
    }
}
