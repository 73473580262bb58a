import ArgumentParser
import Foundation
import ProcessSupport

@main
struct RibCity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribcity",
        abstract: "A multi-process simulation of a ride-hailing city over ZeroMQ.",
        subcommands: [
            DemoCommand.self, CityCommand.self, DemandCommand.self, TopologyCommand.self, SimulateCommand.self,
            LaunchCommand.self, StressCommand.self, OverloadCommand.self, ReportCommand.self, CompareCommand.self,
            DispatchCommand.self,
            DriversCommand.self, RidersCommand.self, MonitorCommand.self,
            BusCommand.self, BenchCommand.self, DemoPeerCommand.self, BenchPeerCommand.self,
        ]
    )

    /// Parses and runs the command, with standard output line-buffered so that a process's log
    /// (a file or a pipe, under `ribcity launch`) shows each line as it is printed.
    static func main() async {
        lineBufferStandardOutput()
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
