import Foundation
import Wire

/// The web monitor's state, shared by the bus reader and every page: the live city, its
/// metrics, and the run's map. A page asks for its next frame and gets what changed since its
/// last, as soon as the city changes (paced by a ``FramePacer``); pages in step share one encoded
/// frame, and a slow or stalled page costs nothing but its own connection.
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
    /// Pages waiting for the next tick, and new pages waiting for a full frame (while a tick is
    /// being encoded), by a number of their own.
    private var waiting: [UInt64: CheckedContinuation<[PageFrame]?, Never>] = [:]
    private var joining: [UInt64: CheckedContinuation<[PageFrame]?, Never>] = [:]
    /// A tick's frame is being encoded off the actor (the city goes on taking envelopes meanwhile).
    private var encoding = false
    private var nextWaiter: UInt64 = 0
    /// Pages connected: while there are none, ticks make no frames.
    private var connected = 0
    private var pacer: FramePacer
    private let origin = ContinuousClock.now
    /// The latest tick (frames go out in ticks), and the version of the city the latest tick
    /// started (the one being encoded, if any) shows.
    private var tick: UInt64 = 0
    private var tickVersion: UInt64 = 0
    /// The latest ticks' frames (each what changed since the tick before), oldest first.
    private var recentTicks: [PageFrame] = []
    /// How many ticks' frames are kept for pages a little behind; a page further behind gets a full frame.
    static let ticksKept = 64

    /// A frame for pages: the tick it brings a page to, and the frame as JSON.
    public struct PageFrame: Sendable, Equatable {
        public var tick: UInt64
        public var json: String
    }

    /// - Parameters:
    ///   - publish: sends an envelope on the bus under a topic (for inspection requests).
    ///   - frameGap: the shortest time between two frames to a page.
    public init(
        map: CityMap, title: String, startSecondOfDay: Double, frameGap: Duration = .milliseconds(5),
        publish: (@Sendable (_ topic: String, _ envelope: Envelope) async -> Void)? = nil
    ) {
        pacer = FramePacer(gap: frameGap)
        let encoder = JSONEncoder()
        mapJSON = (try? encoder.encode(map)) ?? Data("{}".utf8)
        self.title = title
        self.startSecondOfDay = startSecondOfDay
        self.publish = publish
    }

    /// Envelopes from the bus, in the order they came.
    public func apply(_ envelopes: [Envelope]) {
        let before = city.version
        for envelope in envelopes {
            if case .appInspection(let answer)? = envelope.body {
                inspections.removeValue(forKey: answer.request)?.resume(returning: answer)
                continue
            }
            city.apply(envelope)
        }
        if city.version != before { cityChanged() }
    }

    /// A page connected (`true`) or left (`false`).
    public func page(connected: Bool) {
        self.connected += connected ? 1 : -1
    }

    /// The frames that bring a page from tick `after` (nil: a page with nothing yet) to the
    /// latest: a full frame for a new page or one too far behind, the ticks it missed for one a
    /// little behind, or — for one up to date — the next tick's, when it comes. Every page gets
    /// the same frames of a tick, encoded once. Nil when the page's task is cancelled.
    public func nextFrames(after pageTick: UInt64?) async -> [PageFrame]? {
        if let pageTick, pageTick == tick {
            return await wait(joining: false)
        }
        if let pageTick, let first = recentTicks.first, pageTick + 1 >= first.tick {
            return Array(recentTicks.drop { $0.tick <= pageTick })
        }
        // A full frame shows the city as of a tick, so that the page's next frames follow on:
        // with a tick in flight, after it lands.
        if encoding { return await wait(joining: true) }
        if city.version != tickVersion { tickNow() }
        return [fullFrame()]
    }

    /// Waits for the next tick, or (`joining`) for a full frame after the tick in flight.
    private func wait(joining: Bool) async -> [PageFrame]? {
        guard !Task.isCancelled else { return nil }
        let waiter = nextWaiter
        nextWaiter += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                if joining { self.joining[waiter] = $0 } else { waiting[waiter] = $0 }
            }
        } onCancel: {
            Task { await self.leave(waiter) }
        }
    }

    private func leave(_ waiter: UInt64) {
        waiting.removeValue(forKey: waiter)?.resume(returning: nil)
        joining.removeValue(forKey: waiter)?.resume(returning: nil)
    }

    private func cityChanged() {
        switch pacer.changed(at: origin.duration(to: .now)) {
        case .sendNow:
            sendTick()
        case .sendAt(let time):
            Task {
                try? await Task.sleep(until: origin + time)
                self.scheduledTick()
            }
        case .none:
            break
        }
    }

    private func scheduledTick() {
        pacer.fired(at: origin.duration(to: .now))
        if city.version != tickVersion { sendTick() }
    }

    /// A tick: what changed since the last one, as one frame for every page, encoded off the
    /// actor (a tick in flight gathers the changes that come meanwhile into the next).
    private func sendTick() {
        guard !encoding else { return }
        guard connected > 0 || !waiting.isEmpty else {
            tickVersion = city.version
            tick += 1
            recentTicks = []
            return
        }
        let frame = city.frame(since: tickVersion)
        tickVersion = city.version
        encoding = true
        Task.detached {
            let json = Self.json(frame)
            await self.landed(json)
        }
    }

    /// The same tick, encoded here (a new page's full frame must follow on from a tick).
    private func tickNow() {
        let frame = city.frame(since: tickVersion)
        tickVersion = city.version
        publish(Self.json(frame))
    }

    private func landed(_ json: String) {
        encoding = false
        publish(json)
        if !joining.isEmpty {
            if city.version != tickVersion { tickNow() }
            let full = [fullFrame()]
            let joined = joining.values
            joining = [:]
            for page in joined { page.resume(returning: full) }
        }
        if city.version != tickVersion { cityChanged() }
    }

    /// A tick's frame goes to the pages waiting for it and is kept for pages a little behind.
    private func publish(_ json: String) {
        tick += 1
        let frame = PageFrame(tick: tick, json: json)
        recentTicks.append(frame)
        if recentTicks.count > Self.ticksKept { recentTicks.removeFirst(recentTicks.count - Self.ticksKept) }
        let woken = waiting.values
        waiting = [:]
        for page in woken { page.resume(returning: [frame]) }
    }

    /// Everything, as of the latest tick (the city must be at its version).
    private func fullFrame() -> PageFrame {
        assert(city.version == tickVersion, "a full frame shows the city as of a tick")
        return PageFrame(tick: tick, json: Self.json(city.frame(since: 0)))
    }

    private static func json(_ frame: LiveFrame) -> String {
        String(decoding: (try? JSONEncoder().encode(frame)) ?? Data(), as: UTF8.self)
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

    /// A chunk of dispatch process `process`'s snapshot ("dispatch", "dispatch-K"), for a web
    /// monitor that joined a run under way; the last one applies them all.
    public func apply(snapshot chunk: SnapshotChunk, from process: String = "dispatch") {
        city.apply(chunk: chunk, sender: process + "-bus")
        cityChanged()
    }

    /// The run ended with this summary (`summary.json`).
    public func finish(summary: String) {
        city.finish(summary: summary)
        cityChanged()
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
