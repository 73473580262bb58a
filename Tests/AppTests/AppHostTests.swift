import AppRuntime
import RIBs
import SessionClient
import Testing
import Wire
import ZeroMQ

@testable import AppHost

/// An app that does nothing but say when it wants its next tick.
actor QuietApp: HostedApp {
    nonisolated let id: String
    let wake: Double?
    let leaks: Int

    init(id: String, wake: Double?, leaks: Int = 0) {
        self.id = id
        self.wake = wake
        self.leaks = leaks
    }

    func start(at time: Double) -> AppOutput { AppOutput(messages: [], wakeAt: wake) }
    func receive(_ body: Envelope.OneOf_Body, at time: Double) -> AppOutput { AppOutput(messages: [], wakeAt: wake) }
    func tick(at time: Double) -> AppOutput { AppOutput(messages: [], wakeAt: wake) }
    func stop(at time: Double) -> AppOutput { AppOutput(messages: [], finished: true) }
    func health() -> AppHealth { AppHealth(leaks: leaks, ribs: 0, droppedActions: 0, screen: "") }
    func tree() -> RIBTreeSnapshot {
        RIBTreeSnapshot(name: "Quiet", path: "Quiet", viewful: false, active: true, screen: nil, children: [])
    }
}

@Suite("App host: wake-ups")
struct AppHostTests {
    @Test("An answer from an app already released sets no wake-up (one that is never cleared made the host spin)")
    func noWakeForReleasedApps() async throws {
        let transport = try Transport(name: "host-test")
        let session = SessionClient(
            transport: transport, endpoint: "inproc://nobody", hello: Hello.with { $0.sessionID = "riders-test" })
        let app = QuietApp(id: "rider-1", wake: 42)
        let host = AppHost(
            role: .riders, processID: "riders-test", session: session, bus: nil,
            schedule: [ScheduledApp(at: 0) { _, _ in app }])
        await host.dispatch(AppOutput(messages: [], wakeAt: 42), of: app)
        #expect(await host.wakes.all.isEmpty, "rider-1 is not live: nothing to wake")
        await host.step(at: 0, sweep: false)
        #expect(await host.wakes.all == ["rider-1": 42], "once live, its wake-up counts")
        await host.dispatch(AppOutput(messages: [], finished: true, wakeAt: 50), of: app)
        #expect(await host.wakes.all.isEmpty, "finished: released, and no wake-up left behind")
        await transport.shutdown()
    }

    @Test("Leaks found inside finished apps stay counted next to the released apps' own (a step used to overwrite them)")
    func appLeaksStayCounted() async throws {
        let transport = try Transport(name: "host-test")
        let session = SessionClient(
            transport: transport, endpoint: "inproc://nobody", hello: Hello.with { $0.sessionID = "riders-test" })
        let app = QuietApp(id: "rider-1", wake: nil, leaks: 2)
        let host = AppHost(
            role: .riders, processID: "riders-test", session: session, bus: nil, schedule: [ScheduledApp(at: 0) { _, _ in app }])
        await host.step(at: 0, sweep: false)
        await host.dispatch(AppOutput(messages: [], finished: true), of: app)
        await host.step(at: 1, sweep: false)
        #expect(await host.totals.leaks == 2)
        await transport.shutdown()
    }
}
