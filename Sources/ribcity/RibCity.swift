import ArgumentParser
import Foundation
import ProcessSupport

struct RibCity: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribcity",
        abstract: "A multi-process simulation of a ride-hailing city over ZeroMQ.",
        discussion: """
            Examples:
              # a city, every process real, with the monitor
              ribcity launch Topologies/downtown.yaml
              # as fast as the machine allows, the same every time
              ribcity launch Topologies/metro.yaml --virtual
              ribcity stress Topologies/downtown.yaml --kill-every 20 --forge-rate 5
              # the run that ended last, again
              ribcity report
              # two runs' KPIs side by side
              ribcity compare runs/A runs/B
              # SUMO's taxi reference run, in-process
              ribcity simulate
            """,
        version: RibCity.version,
        subcommands: [
            DemoCommand.self, CityCommand.self, DemandCommand.self, CalibrateCommand.self, FidelityCommand.self,
            TopologyCommand.self, SimulateCommand.self,
            LaunchCommand.self, StressCommand.self, OverloadCommand.self, ReportCommand.self, CompareCommand.self,
            DispatchCommand.self,
            DriversCommand.self, RidersCommand.self, MonitorCommand.self, KeysCommand.self, DeployCommand.self,
            BusCommand.self, BenchCommand.self, DemoPeerCommand.self, BenchPeerCommand.self,
        ]
    )

    /// This build's version, the protocol version it speaks, and the allocator it runs on.
    static let version = "ribcity 0.9.0 (wire protocol 1)\n\(MemoryAllocator.description)"

    /// Parses and runs the command, with standard output line-buffered so that a process's log
    /// (a file or a pipe, under `ribcity launch`) shows each line as it is printed. A mistyped
    /// subcommand gets a suggestion, bad input files their message alone (exit 65).
    static func runCommandLine() async {
        lineBufferStandardOutput()
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = configuration.subcommands.filter { $0.configuration.shouldDisplay }.compactMap {
            $0.configuration.commandName
        }
        if let typed = arguments.first, !typed.hasPrefix("-"), typed != "help",
            !configuration.subcommands.contains(where: { $0.configuration.commandName == typed })
        {
            let suggestion = CommandSuggestion.nearest(to: typed, among: names).map { " Did you mean '\($0)'?" } ?? ""
            FileHandle.standardError.write(
                Data("Error: '\(typed)' is not a ribcity command.\(suggestion)\n  See 'ribcity --help' for the commands.\n".utf8))
            Foundation.exit(64)
        }
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch let error as BadInput {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            Foundation.exit(65)
        } catch {
            exit(withError: error)
        }
    }
}
