import ArgumentParser
import Foundation
import ProcessSupport
import Topology
import ZeroMQ

/// `ribcity bus --topology FILE`: the event bus — an XSUB/XPUB proxy that every process publishes
/// to and every subscriber (the monitor, tools) reads from, subscriptions flowing upstream.
struct BusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bus",
        abstract: "Run the event bus: an XSUB/XPUB proxy between publishers and subscribers.",
        discussion: """
            Examples:
              ribcity bus --topology Topologies/downtown.yaml
            """
    )

    @OptionGroup var topologyFile: TopologyArgument
    var topology: String { topologyFile.path }

    @Option(help: "Endpoint publishers connect to (default: from the topology).")
    var publish: String?

    @Option(help: "Endpoint subscribers connect to (default: from the topology).")
    var subscribe: String?

    func run() async throws {
        let plan = try readTopology(topology)
        let endpoints = plan.endpoints.bus(run: plan.name, temporaryDirectory: NSTemporaryDirectory())
        try await Transport.using(name: "bus-io") { transport in
            let proxy = try await Proxy.start(
                on: transport, frontend: .init(.xsub, bind: publish ?? endpoints.publish, options: .eventBus),
                backend: .init(.xpub, bind: subscribe ?? endpoints.subscribe, options: .eventBus))
            // Told to stop from the moment it says it is ready.
            let (interrupted, interrupt) = AsyncStream.makeStream(of: Void.self)
            let signals = await onInterrupt { interrupt.yield() }
            print("bus pid \(getpid()) ready: publishers to \(proxy.frontendEndpoint), subscribers from \(proxy.backendEndpoint)")
            for await _ in interrupted { break }
            signals.forEach { $0.cancel() }
            await proxy.stop()
            print("bus stopped")
        }
    }
}
