import ArgumentParser
import Foundation
import ProcessSupport
import SimulatedTime
import Topology
import VirtualTime
import Wire
import ZeroMQ

/// `--virtual --window-keeper ENDPOINT`: how a participant (dispatch, a rider or driver process)
/// takes part in virtual time. The coordinator sets `RIBCITY_LIFE` for each start of a process.
struct VirtualTimeOptions: ParsableArguments {
    @Flag(help: "Run in virtual time (also when the topology says clock: { mode: virtual }).")
    var virtual = false

    @Option(help: "The bus proxy's subscriber endpoint (default: from the topology).")
    var subscribeTo: String?

    @Option(
        help:
            "Virtual time: the coordinator's window link, where windows open and are reported done (default: from the topology).")
    var windowKeeper: String?

    /// Whether the process runs in virtual time (the flag, or the topology's clock mode).
    func isVirtual(_ plan: Topology) -> Bool { virtual || plan.clockMode == .virtual }

    /// The window link's endpoint: the one given, or the topology's; `nil` in wall-clock time.
    func keeperEndpoint(of plan: Topology) -> String? {
        guard isVirtual(plan) else { return nil }
        return windowKeeper ?? plan.windowLink(run: plan.name, temporaryDirectory: NSTemporaryDirectory())
    }

    /// The participant's life, its lookahead and its window link (a DEALER connected to the
    /// coordinator's, on which it has said hello as `name`); `nil` in wall-clock time.
    func clock(
        of plan: Topology, as name: String, on transport: Transport
    ) async throws -> (
        life: UInt32, latency: SimDuration, windows: Socket
    )? {
        guard let endpoint = keeperEndpoint(of: plan) else { return nil }
        let life = ProcessLife.current()
        var options = SocketOptions()
        options.linger = .seconds(5)
        // Dispatch sends its window's events here too, a matching round's worth at once.
        options.sendHighWaterMark = 100_000
        let windows = try await transport.socket(.dealer, options: options)
        try await windows.connect(endpoint)
        var stamper = SequenceStamper(sender: name + "-window-hello")
        let hello = Envelope(.windowHello(WindowHello(ParticipantID(name, incarnation: life))), from: stamper.next())
        try await windows.send(Message(Frames.Published(topic: Topic.windowHello, envelope: hello).frames))
        return (life, SimDuration(wireMilliseconds: plan.latencyMs), windows)
    }
}
