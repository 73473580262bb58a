import ArgumentParser
import Coordinator
import Foundation
import ProcessSupport

/// `ribcity keys --topology FILE --out DIR`: a run's CURVE keys made beforehand, for a city
/// across hosts — every host gets the directory (a secret store, a Kubernetes Secret, a copy
/// readable only by the user that runs ribcity) and the coordinator launches with `--keys DIR`.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Make a run's CURVE keys beforehand, for a city across hosts (launch --keys DIR; each host RIBCITY_KEYS=DIR).",
        discussion: """
            Examples:
              ribcity keys --topology city.yaml --out /etc/ribcity/keys
            """
    )

    @OptionGroup var topologyFile: TopologyArgument

    @Option(help: "The directory to make (owner-only); existing keys in it are replaced.")
    var out: String

    func run() throws {
        let topology = try readTopology(topologyFile.path)
        let names = Coordinator.keyNames(for: topology)
        try RunKeys.generate(for: names, in: out)
        print("keys for \(names.count) processes in \(out): \(names.joined(separator: ", "))")
        print("launch with --keys \(out); on every other host, give each process RIBCITY_KEYS=\(out)")
    }
}
