import ArgumentParser
import Foundation
import ProcessSupport
import SimulatedTime
import Topology
import Wire
import ZeroMQ

/// `--virtual --subscribe-to ENDPOINT`: how a participant (dispatch, a rider or driver process)
/// takes part in virtual time. The coordinator sets `RIBCITY_LIFE` for each start of a process.
struct VirtualTimeOptions: ParsableArguments {
    @Flag(help: "Run in virtual time (also when the topology says clock: { mode: virtual }).")
    var virtual = false

    @Option(help: "Virtual time: the bus proxy's subscriber endpoint, where windows open (default: from the topology).")
    var subscribeTo: String?

    /// Whether the process runs in virtual time (the flag, or the topology's clock mode).
    func isVirtual(_ plan: Topology) -> Bool { virtual || plan.clockMode == .virtual }

    /// The participant's life, its lookahead and the socket its windows come on; `nil` in wall-clock time.
    func clock(
        of plan: Topology, on transport: Transport
    ) async throws -> (
        life: UInt32, latency: SimDuration, windows: Socket
    )? {
        guard isVirtual(plan) else { return nil }
        let life = ProcessLife.current()
        let windows = try await transport.socket(.sub, options: .eventBus)
        try await windows.connect(
            subscribeTo ?? plan.endpoints.bus(run: plan.name, temporaryDirectory: NSTemporaryDirectory()).subscribe)
        try await windows.subscribe(Topic.windowOpen)
        return (life, SimDuration(wireMilliseconds: plan.latencyMs), windows)
    }
}
