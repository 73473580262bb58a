import AppRuntime
import ArgumentParser
import City
import DriverApp
import Foundation
import RiderApp
import Wire

/// `ribcity bench apps`: memory per live rider and driver app (each a RIB tree on its own actor),
/// held at the screens they spend the most time on: a rider waiting for a driver, a driver online.
struct AppsBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Memory per live rider app (waiting for a driver) and per live driver app (online).",
        discussion: """
            Examples:
              ribcity bench apps
              ribcity bench apps --feature rider.share_eta --feature rider.split_fare
            """
    )

    @Option(help: "Apps of each kind to hold.")
    var apps = 20_000

    @Option(
        name: .customLong("feature"), help: "Also turn this rider feature on (repeatable): rider.share_eta, rider.split_fare.")
    var features: [String] = []

    func run() async {
        let graph = GridCity(width: 5_000, height: 5_000, blockLength: 250, speedKmh: 50).build()
        let baseline = ProcessUsage.current().residentBytes
        // One set of flags for every app, as a host passes its topology's (copy-on-write: shared).
        let flags = Dictionary(uniqueKeysWithValues: (["rider.promotions"] + features).map { ($0, true) })
        // Every app on one executor, as a host's apps run on the host's.
        let queue = AppQueue()
        var riders: [RiderApp] = []
        riders.reserveCapacity(apps)
        for index in 0..<apps {
            let profile = RiderProfile(
                id: WireIDs.rider(index), name: "Rider \(index)", requestAt: 0, pickup: graph.positions[index % graph.nodeCount],
                dropoff: graph.positions[(index * 7 + 3) % graph.nodeCount], patience: 600)
            let app = RiderApp(profile: profile, features: flags, at: 0, beside: queue)
            _ = await app.start(at: 0)
            _ = await app.receive(
                .quote(
                    Wire.Quote.with {
                        $0.riderID = profile.id; $0.product = .uberX; $0.priceCents = 1_200
                    }), at: 1)
            _ = await app.receive(.requestReceived(RequestReceived.with { $0.requestID = profile.id }), at: 1)
            riders.append(app)
        }
        let withRiders = ProcessUsage.current().residentBytes
        let ribs = await riders[0].health().ribs
        var drivers: [DriverApp] = []
        drivers.reserveCapacity(apps)
        for index in 0..<apps {
            let app = DriverApp(
                profile: DriverProfile(id: WireIDs.driver(index), startNode: index % graph.nodeCount), graph: graph, at: 0,
                beside: queue)
            _ = await app.start(at: 0)
            drivers.append(app)
        }
        let withDrivers = ProcessUsage.current().residentBytes
        let driverRibs = await drivers[0].health().ribs
        print(
            String(
                format: "%d rider apps waiting for a driver (%d RIBs each): %.2f KB each", apps, ribs,
                Double(withRiders - baseline) / Double(apps) / 1024))
        print(
            String(
                format: "%d driver apps online (%d RIBs each): %.2f KB each", apps, driverRibs,
                Double(withDrivers - withRiders) / Double(apps) / 1024))
        withExtendedLifetime((riders, drivers)) {}
    }
}
