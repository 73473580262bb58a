import Foundation
import Topology
import Wire

/// A city across hosts, deployed with an existing process manager: systemd units for each host,
/// or a Kubernetes manifest — generated from a launch plan (`ribcity deploy`). The coordinator's
/// host runs `ribcity launch` (which starts the processes placed there itself); every other
/// host's manager runs its processes with `--join`, restarts them when they fail, and leaves
/// them stopped when they end cleanly (the run is over).
public struct Deployment: Sendable {
    /// Where things are on every host (or in every container).
    public struct Layout: Sendable {
        /// The `ribcity` program.
        public var program = "/usr/local/bin/ribcity"
        /// The directory holding the topology file (as `city.yaml`, with its data beside it as
        /// the file's relative paths say) and the `keys/` directory.
        public var configuration = "/etc/ribcity"
        /// Where the coordinator writes its run directories.
        public var runs = "/var/lib/ribcity/runs"
        /// Kubernetes: the container image that holds `ribcity` (and the topology's data files).
        public var image = "ribcity:latest"

        public init() {}

        var topology: String { configuration + "/city.yaml" }
        var keys: String { configuration + "/keys" }
    }

    /// A file to write: its name and text.
    public struct File: Sendable, Equatable {
        public let name: String
        public let text: String
    }

    public let plan: LaunchPlan
    public let layout: Layout

    public init(plan: LaunchPlan, layout: Layout) {
        self.plan = plan
        self.layout = layout
    }

    /// The coordinator's host.
    public var coordinatorHost: Topology.Host? { plan.topology.hosts.first }

    /// The processes other hosts run, in the plan's order.
    public var joining: [ProcessSpec] { plan.processes.filter { $0.host != nil } }

    /// The arguments that start `spec` on its host.
    public func joinArguments(_ spec: ProcessSpec, process index: String) -> [String] {
        [
            spec.role == .drivers ? "drivers" : "riders", "--topology", layout.topology, "--process", index, "--join",
            plan.busPublish,
        ]
    }

    private var keyArguments: [String] { plan.topology.usesCurve ? ["--keys", layout.keys] : [] }

    private var launchArguments: [String] {
        ["launch", layout.topology] + keyArguments + ["--no-monitor", "--runs", layout.runs]
    }

    private func index(of spec: ProcessSpec) -> String { String(spec.name.split(separator: "-").last ?? "0") }

    // MARK: systemd

    /// systemd units: the coordinator's service, a template per role (`ribcity-drivers@N`), and
    /// `HOSTS.md`, which says what to install and enable on each host, command by command.
    public func systemdUnits() -> [File] {
        let name = plan.topology.name
        let keysEnvironment = plan.topology.usesCurve ? "Environment=RIBCITY_KEYS=\(layout.keys)\n" : ""
        var files = [
            File(
                name: "ribcity-coordinator.service",
                text: """
                    [Unit]
                    Description=ribcity: the city \(name) (coordinator, bus and dispatch)
                    Wants=network-online.target
                    After=network-online.target

                    [Service]
                    Type=exec
                    User=ribcity
                    ExecStart=\(([layout.program] + launchArguments).joined(separator: " "))
                    # A run is a job: it ends when its rides have, and is not started again.
                    Restart=no
                    # On SIGTERM the coordinator stops its processes in order and writes the summary.
                    TimeoutStopSec=60

                    [Install]
                    WantedBy=multi-user.target

                    """)
        ]
        for role in ["drivers", "riders"] where joining.contains(where: { $0.name.hasPrefix(role + "-") }) {
            let spec = joining.first { $0.name.hasPrefix(role + "-") }!
            files.append(
                File(
                    name: "ribcity-\(role)@.service",
                    text: """
                        [Unit]
                        Description=ribcity: \(role) process %i of the city \(name), joining the coordinator at \(plan.busPublish)
                        Wants=network-online.target
                        After=network-online.target

                        [Service]
                        Type=exec
                        User=ribcity
                        \(keysEnvironment)ExecStart=\(([layout.program] + joinArguments(spec, process: "%i")).joined(separator: " "))
                        # A failure (a crash, a coordinator not there yet) is started again and rejoins;
                        # a clean exit means the run is over for it.
                        Restart=on-failure
                        RestartSec=1

                        [Install]
                        WantedBy=multi-user.target

                        """))
        }
        files.append(File(name: "HOSTS.md", text: systemdGuide()))
        return files
    }

    private func systemdGuide() -> String {
        var lines = [
            "# Deploying \(plan.topology.name) with systemd", "",
            "Every host: the same `ribcity` at \(layout.program), a user `ribcity` (`useradd --system ribcity`), the topology",
            "at \(layout.topology) with its data files beside it, byte for byte the same on every host (a host with another",
            "file is refused when it joins)"
                + (plan.topology.usesCurve
                    ? ", and the run's keys in \(layout.keys), made once with `ribcity keys --topology \(layout.topology) --out \(layout.keys)` and copied to every host, readable by `ribcity` only."
                    : "."),
            "", "Copy the unit files to /etc/systemd/system/ and run `systemctl daemon-reload` on each host, then:", "",
        ]
        for host in plan.topology.hosts {
            let units = joining.filter { $0.host == host }.map {
                "ribcity-\($0.role == .drivers ? "drivers" : "riders")@\(index(of: $0))"
            }
            let processes = plan.processes.filter { $0.host == nil }.map(\.name).joined(separator: ", ")
            if host == coordinatorHost {
                lines += [
                    "## \(host.name) (\(host.address)): the coordinator", "",
                    "    systemctl start ribcity-coordinator", "",
                    "It runs \(processes) itself, and waits for the others to join on \(plan.busPublish).", "",
                ]
            } else if !units.isEmpty {
                lines += ["## \(host.name) (\(host.address))", "", "    systemctl start \(units.joined(separator: " "))", ""]
            }
        }
        lines += [
            "Follow a run with `journalctl -u ribcity-coordinator -f`; its run directory is under \(layout.runs).",
            "A process started before the coordinator waits for it (up to --join-timeout, 600 s by default).", "",
        ]
        return lines.joined(separator: "\n")
    }

    // MARK: Kubernetes

    /// Why the plan cannot be deployed on Kubernetes as it stands, or nil.
    public var kubernetesProblem: String? {
        guard let coordinator = coordinatorHost else { return "the topology has no hosts: section" }
        let label = coordinator.address
        let valid =
            !label.isEmpty && label.count <= 63 && label.first!.isLetter
            && label.allSatisfy { ($0.isLetter && $0.isLowercase) || $0.isNumber || $0 == "-" }
        return valid
            ? nil
            : "the coordinator's host (\(coordinator.name)) has the address \(label); on Kubernetes it must be the "
                + "coordinator's service name (a DNS label such as ribcity-coordinator), which every pod reaches it by"
    }

    /// One manifest: the topology as a ConfigMap, the coordinator's Service and Job, and a Job per
    /// process that joins (restarted on failure, done when it exits cleanly), each placed on the
    /// nodes labelled with its host's name (`ribcity/host=NAME`). The keys are a Secret made from
    /// `ribcity keys` (the command is in the manifest's header).
    public func kubernetesManifest(topologyText: String) -> String {
        let name = plan.topology.name
        let service = coordinatorHost?.address ?? "ribcity-coordinator"
        var documents: [String] = []
        documents.append(
            """
            # ribcity: the city \(name) on Kubernetes (generated by `ribcity deploy --kubernetes`).
            # Before applying:
            #   kubectl label node NODE ribcity/host=HOST   for each host of the topology (\(plan.topology.hosts.map(\.name).joined(separator: ", ")))
            \(plan.topology.usesCurve ? "#   ribcity keys --topology city.yaml --out keys && kubectl create secret generic ribcity-keys --from-file=keys\n" : "")\
            # The image \(layout.image) holds ribcity at \(layout.program) and the topology's data files at the
            # paths city.yaml names (relative to \(layout.configuration)).
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: ribcity-topology
            data:
              city.yaml: |
            \(topologyText.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
            """)
        documents.append(
            """
            apiVersion: v1
            kind: Service
            metadata:
              name: \(service)
            spec:
              selector: { app: ribcity-coordinator }
              ports:
            \(servedPorts.map { "    - { name: \($0.name), port: \($0.port), targetPort: \($0.port) }" }.joined(separator: "\n"))
            """)
        documents.append(
            job(
                "ribcity-coordinator", host: coordinatorHost?.name ?? "", arguments: launchArguments, restart: "Never",
                labels: "app: ribcity-coordinator"))
        for spec in joining {
            documents.append(
                job(
                    "ribcity-\(spec.name)", host: spec.host?.name ?? "", arguments: joinArguments(spec, process: index(of: spec)),
                    restart: "OnFailure", labels: "app: ribcity-\(spec.role == .drivers ? "drivers" : "riders")"))
        }
        return documents.joined(separator: "\n---\n") + "\n"
    }

    /// What the coordinator's host serves to the others, by name (``Topology/Endpoints/servedPorts(shards:virtual:)``).
    var servedPorts: [(name: String, port: Int)] {
        plan.topology.endpoints.servedPorts(shards: plan.sessions.count, virtual: plan.virtual)
    }

    private func job(_ name: String, host: String, arguments: [String], restart: String, labels: String) -> String {
        let keys = plan.topology.usesCurve
        return """
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: \(name)
            spec:
              backoffLimit: 10
              template:
                metadata:
                  labels: { \(labels) }
                spec:
                  restartPolicy: \(restart)
                  nodeSelector: { ribcity/host: \(host) }
                  containers:
                    - name: ribcity
                      image: \(layout.image)
                      command: [\(([layout.program] + arguments).map { "\"\($0)\"" }.joined(separator: ", "))]
            \(keys ? "          env: [{ name: RIBCITY_KEYS, value: \(layout.keys) }]\n" : "")\
                      volumeMounts:
                        - { name: topology, mountPath: \(layout.topology), subPath: city.yaml }
            \(keys ? "            - { name: keys, mountPath: \(layout.keys), readOnly: true }\n" : "")\
                  volumes:
                    - { name: topology, configMap: { name: ribcity-topology } }
            \(keys ? "        - { name: keys, secret: { secretName: ribcity-keys, defaultMode: 0400 } }\n" : "")
            """.trimmingCharacters(in: .newlines)
    }
}
