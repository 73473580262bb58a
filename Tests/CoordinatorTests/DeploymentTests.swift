import Foundation
import Testing
import Topology
import Yams

@testable import Coordinator

@Suite("Deploying a city across hosts: systemd units and a Kubernetes manifest")
struct DeploymentTests {
    static let text = """
        name: across
        city: { grid: {} }
        drivers: { processes: 3, host: [hub, fleet] }
        riders: { processes: 1, host: town, demand: { synthetic: { peak_per_hour: 5 } } }
        endpoints: { transport: tcp, base_port: 7000 }
        hosts: [{ name: hub, address: ribcity-coordinator }, { name: fleet, address: 10.0.0.2 }, { name: town, address: 10.0.0.3 }]
        """

    private func deployment() throws -> Deployment {
        let topology = try TopologyReader.parse(Self.text, file: "across.yaml", directory: "/")
        return Deployment(
            plan: LaunchPlan(topology: topology, topologyPath: "/etc/ribcity/city.yaml", speed: nil, monitor: false),
            layout: Deployment.Layout())
    }

    @Test(
        "systemd: the coordinator's service, a template per role that joins, restarted on failure only, and what to start where")
    func systemd() throws {
        let files = Dictionary(uniqueKeysWithValues: try deployment().systemdUnits().map { ($0.name, $0.text) })
        #expect(
            Set(files.keys) == ["ribcity-coordinator.service", "ribcity-drivers@.service", "ribcity-riders@.service", "HOSTS.md"])
        #expect(
            files["ribcity-coordinator.service"]!.contains(
                "ExecStart=/usr/local/bin/ribcity launch /etc/ribcity/city.yaml --keys /etc/ribcity/keys --no-monitor --runs /var/lib/ribcity/runs\n"
            ))
        let drivers = files["ribcity-drivers@.service"]!
        #expect(
            drivers.contains(
                "ExecStart=/usr/local/bin/ribcity drivers --topology /etc/ribcity/city.yaml --process %i --join tcp://ribcity-coordinator:7002\n"
            ))
        #expect(drivers.contains("Restart=on-failure\n") && drivers.contains("Environment=RIBCITY_KEYS=/etc/ribcity/keys\n"))
        let guide = files["HOSTS.md"]!
        #expect(guide.contains("## fleet (10.0.0.2)\n\n    systemctl start ribcity-drivers@1\n"), "\(guide)")
        #expect(guide.contains("## town (10.0.0.3)\n\n    systemctl start ribcity-riders@0\n"), "\(guide)")
        #expect(guide.contains("It runs dispatch, drivers-0, drivers-2 itself"), "\(guide)")
    }

    @Test(
        "Kubernetes: valid YAML documents — the topology, the coordinator's service and job, a job per joining process on its host's nodes"
    )
    func kubernetes() throws {
        let deployment = try deployment()
        #expect(deployment.kubernetesProblem == nil)
        let manifest = deployment.kubernetesManifest(topologyText: Self.text)
        let documents = try Array(Yams.load_all(yaml: manifest)).compactMap { $0 as? [String: Any] }
        #expect(documents.map { $0["kind"] as? String } == ["ConfigMap", "Service", "Job", "Job", "Job"])
        let topology = (documents[0]["data"] as? [String: String])?["city.yaml"]
        #expect(
            topology?.trimmingCharacters(in: .newlines) == Self.text,
            "the ConfigMap holds the file byte for byte (its CRC is checked)")
        #expect((documents[1]["metadata"] as? [String: Any])?["name"] as? String == "ribcity-coordinator")
        let ports = ((documents[1]["spec"] as? [String: Any])?["ports"] as? [[String: Any]])?.compactMap { $0["port"] as? Int }
        #expect(ports == [7000, 7002, 7003], "sessions and the bus's two sides")
        func pod(_ job: [String: Any]) -> [String: Any] {
            ((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any] ?? [:]
        }
        let riders = pod(documents[4])
        #expect(riders["restartPolicy"] as? String == "OnFailure")
        #expect((riders["nodeSelector"] as? [String: String])?["ribcity/host"] == "town")
        let command = ((riders["containers"] as? [[String: Any]])?.first?["command"] as? [String]) ?? []
        #expect(
            command == [
                "/usr/local/bin/ribcity", "riders", "--topology", "/etc/ribcity/city.yaml", "--process", "0", "--join",
                "tcp://ribcity-coordinator:7002",
            ])
        #expect(pod(documents[2])["restartPolicy"] as? String == "Never")

        let byAddress = try TopologyReader.parse(
            Self.text.replacingOccurrences(of: "address: ribcity-coordinator", with: "address: 10.0.0.1"), file: "a.yaml",
            directory: "/")
        let problem = Deployment(
            plan: LaunchPlan(topology: byAddress, topologyPath: "/x", speed: nil, monitor: false), layout: Deployment.Layout()
        ).kubernetesProblem
        #expect(problem?.contains("on Kubernetes it must be the coordinator's service name") == true)
    }

    @Test("Kubernetes: the coordinator's service serves every dispatch shard's sessions and, in virtual time, the window link")
    func servedPorts() throws {
        let text = Self.text.replacingOccurrences(
            of: "name: across\n", with: "name: across\ndispatch: { shards: 2 }\nclock: { mode: virtual }\n")
        let topology = try TopologyReader.parse(text, file: "across.yaml", directory: "/")
        let plan = LaunchPlan(topology: topology, topologyPath: "/etc/ribcity/city.yaml", speed: nil, monitor: false)
        let deployment = Deployment(plan: plan, layout: Deployment.Layout())
        #expect(deployment.servedPorts.map(\.name) == ["sessions", "sessions-1", "bus-in", "bus-out", "windows"])
        #expect(deployment.servedPorts.map(\.port) == [7000, 7004, 7002, 7003, 7005])
        #expect(plan.windows == "tcp://ribcity-coordinator:7005")
        let manifest = deployment.kubernetesManifest(topologyText: text)
        let documents = try Array(Yams.load_all(yaml: manifest)).compactMap { $0 as? [String: Any] }
        let ports = ((documents[1]["spec"] as? [String: Any])?["ports"] as? [[String: Any]])?.compactMap { $0["port"] as? Int }
        #expect(ports == [7000, 7004, 7002, 7003, 7005])
    }
}
