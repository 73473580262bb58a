import ArgumentParser

@main
struct RibCity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribcity",
        abstract: "A multi-process simulation of a ride-hailing city over ZeroMQ.",
        subcommands: [DemoCommand.self, CityCommand.self, DemandCommand.self, TopologyCommand.self, SimulateCommand.self, DispatchCommand.self, MonitorCommand.self, BusCommand.self, BenchCommand.self, DemoPeerCommand.self, BenchPeerCommand.self]
    )
}
