import ArgumentParser
import Coordinator
import Foundation
import Topology

/// `ribcity deploy --topology FILE (--systemd DIR | --kubernetes FILE)`: a city across hosts for
/// an existing process manager — systemd units per host, or a Kubernetes manifest.
struct DeployCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deploy",
        abstract: "Generate systemd units or a Kubernetes manifest that run a city across hosts (docs/DEPLOYMENT.md).",
        discussion: """
            Examples:
              ribcity deploy --topology city.yaml --systemd units/
              ribcity deploy --topology city.yaml --kubernetes ribcity.yaml --image registry.example/ribcity:0.9
            """
    )

    @OptionGroup var topologyFile: TopologyArgument

    @Option(help: "Write systemd unit files and HOSTS.md (what to start on each host) into this directory.")
    var systemd: String?

    @Option(help: "Write a Kubernetes manifest (ConfigMap, Service, Jobs) to this file.")
    var kubernetes: String?

    @Option(help: "Where ribcity is on every host or in the image.")
    var program = Deployment.Layout().program

    @Option(help: "The directory on every host (or in every pod) holding the topology as city.yaml and the keys/.")
    var configuration = Deployment.Layout().configuration

    @Option(help: "Where the coordinator writes its run directories.")
    var runs = Deployment.Layout().runs

    @Option(help: "Kubernetes: the image holding ribcity and the topology's data files.")
    var image = Deployment.Layout().image

    func validate() throws {
        guard systemd != nil || kubernetes != nil else {
            throw ValidationError("say what to generate: --systemd DIR, --kubernetes FILE, or both")
        }
    }

    func run() throws {
        let topology = try readTopology(topologyFile.path)
        guard !topology.hosts.isEmpty else {
            throw ValidationError(
                "\(topologyFile.path) places every process on one machine: add hosts: (the coordinator's first) and host: to "
                    + "the drivers and riders (docs/TOPOLOGIES.md)")
        }
        var layout = Deployment.Layout()
        layout.program = program
        layout.configuration = configuration
        layout.runs = runs
        layout.image = image
        let plan = LaunchPlan(topology: topology, topologyPath: layout.configuration + "/city.yaml", speed: nil, monitor: false)
        let deployment = Deployment(plan: plan, layout: layout)
        if let systemd {
            try FileManager.default.createDirectory(atPath: systemd, withIntermediateDirectories: true)
            for file in deployment.systemdUnits() {
                try file.text.write(
                    toFile: (systemd as NSString).appendingPathComponent(file.name), atomically: true, encoding: .utf8)
            }
            print(
                "systemd: \(deployment.systemdUnits().map(\.name).joined(separator: ", ")) in \(systemd) (HOSTS.md says what runs where)"
            )
        }
        if let kubernetes {
            if let problem = deployment.kubernetesProblem { throw ValidationError("--kubernetes: \(problem)") }
            let text = try String(contentsOfFile: topologyFile.path, encoding: .utf8)
            try deployment.kubernetesManifest(topologyText: text).write(toFile: kubernetes, atomically: true, encoding: .utf8)
            print(
                "kubernetes: \(kubernetes): the topology, the coordinator's service and job, \(deployment.joining.count) joining jobs"
            )
        }
    }
}
