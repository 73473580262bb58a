import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// In the launch suite, which runs its cities one at a time.
extension LaunchTests {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A port no one listens on now.
    static func freePort() -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test(
        "The web monitor as a person uses it, in headless Chromium: the map draws streets and drivers, a click on a driver and a rider's id open their apps' live RIB trees, and at the end the page's totals and /metrics equal summary.json"
    )
    func webMonitorInChromium() async throws {
        let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let web = URL(fileURLWithPath: ribcityBinary!).deletingLastPathComponent().appendingPathComponent("ribcity-web").path
        guard chromium != nil, FileManager.default.isExecutableFile(atPath: web) else {
            Issue.record("needs chromium (Tools/bootstrap installs it) and ribcity-web built beside ribcity")
            return
        }
        let port = Self.freePort()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent("ribcity-web-\(port)")
        let checker = Process()
        checker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        checker.arguments = [
            "python3", Self.packageRoot.appendingPathComponent("Tools/check-web-page").path, "http://127.0.0.1:\(port)/",
            shots.path,
            "--until-summary", "150",
        ]
        let pipe = ChildProcess.pipe()
        checker.standardOutput = pipe
        try ChildProcess.run(checker)
        let run = try await LaunchedRun.launch(extra: ["--web", "\(port)", "--web-linger", "15"], nice: true)
        defer { try? FileManager.default.removeItem(at: run.directory) }
        let seen = try await within(60, "the page check") {
            await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
                Thread {
                    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    checker.waitUntilExit()
                    done.resume(returning: text)
                }.start()
            }
        }
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("http://127.0.0.1:\(port)/"), "the launch says where the page is")
        #expect(checker.terminationStatus == 0, "\(seen)")
        #expect(seen.contains(#""failures": []"#), "\(seen)")
        for shot in ["1-map.png", "2-driver-picked.png", "3-rider-tree.png", "4-summary.png"] {
            #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent(shot).path), "screenshot \(shot)")
        }
        print("web monitor screenshots: \(shots.path)")
    }
}

extension LaunchTests {
    @Test(
        "ribcity monitor --web serves the page and the city's map beside the terminal monitor, and stops it when the monitor stops"
    )
    func monitorServesTheWebPage() async throws {
        let web = URL(fileURLWithPath: ribcityBinary!).deletingLastPathComponent().appendingPathComponent("ribcity-web").path
        guard FileManager.default.isExecutableFile(atPath: web) else {
            Issue.record("needs ribcity-web built beside ribcity")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ribcity-monitor-web-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let topology = directory.appendingPathComponent("city.yaml")
        try """
        name: watched-\(getpid())
        city: { grid: { width_m: 1000, height_m: 1000, block_m: 250, speed_kmh: 36 } }
        drivers: { processes: 1, per_process: 2 }
        riders: { processes: 1, demand: { synthetic: { peak_per_hour: 60 } } }
        """.write(to: topology, atomically: true, encoding: .utf8)
        let port = Self.freePort()
        let monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: ribcityBinary!)
        monitor.arguments = ["monitor", "--topology", topology.path, "--web", "\(port)", "--wall-limit", "8", "--json"]
        monitor.standardOutput = FileHandle.nullDevice
        monitor.standardError = FileHandle.nullDevice
        try ChildProcess.run(monitor)
        defer { monitor.interrupt() }
        var streets = 0
        for _ in 0..<60 where streets == 0 {
            try await Task.sleep(for: .milliseconds(100))
            guard let url = URL(string: "http://127.0.0.1:\(port)/map.json"),
                let (data, _) = try? await URLSession.shared.data(from: url),
                let map = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { continue }
            streets = (map["streets"] as? [Any])?.count ?? 0
        }
        #expect(streets == 2 * 40, "a 5 × 5 grid's 40 blocks, from the page's server")
        try await within(20, "the monitor's end") {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread {
                    monitor.waitUntilExit()
                    done.resume()
                }.start()
            }
        }
        let after = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/map.json")!)
        #expect(after == nil, "the page's server stops with the monitor")
    }
}
