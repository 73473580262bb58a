import Foundation
import TestSupport

/// Three hosts on this machine for a city across hosts: Linux network namespaces joined by veth
/// pairs. `hub` (the coordinator, the bus and dispatch) is 10.77.1.1 toward `fleet` (10.77.1.2)
/// and 10.77.2.1 toward `town` (10.77.2.2); fleet and town reach the hub's 10.77.1.1 through it.
/// Made by `ip` (iproute2), removed by ``remove()``; needs root and a kernel that allows them.
struct NetworkHosts {
    let suffix: String
    static let hubAddress = "10.77.1.1"

    func namespace(_ host: String) -> String { "rc\(host)-\(suffix)" }

    /// The hub's end of the veth pair toward `host` (`fleet` or `town`).
    func hubLink(toward host: String) -> String { "h\(host.prefix(1))-\(suffix)" }

    /// Whether this machine lets the tests make namespaces (root, iproute2, a kernel that allows it).
    static let available: Bool = {
        let probe = "rcprobe-\(getpid())"
        guard (try? Self.ip(["netns", "add", probe])) != nil else { return false }
        _ = try? Self.ip(["netns", "del", probe])
        return true
    }()

    /// Makes the three hosts and their links.
    init() throws {
        suffix = String(UUID().uuidString.prefix(6).lowercased())
        do {
            for host in ["hub", "fleet", "town"] {
                try Self.ip(["netns", "add", namespace(host)])
                try Self.ip(["-n", namespace(host), "link", "set", "lo", "up"])
            }
            for (host, subnet) in [("fleet", 1), ("town", 2)] {
                let far = "\(host.prefix(1))h-\(suffix)"
                try Self.ip([
                    "link", "add", hubLink(toward: host), "netns", namespace("hub"), "type", "veth", "peer", "name", far, "netns",
                    namespace(host),
                ])
                try Self.ip(["-n", namespace("hub"), "addr", "add", "10.77.\(subnet).1/24", "dev", hubLink(toward: host)])
                try Self.ip(["-n", namespace(host), "addr", "add", "10.77.\(subnet).2/24", "dev", far])
                try Self.ip(["-n", namespace("hub"), "link", "set", hubLink(toward: host), "up"])
                try Self.ip(["-n", namespace(host), "link", "set", far, "up"])
                try Self.ip(["-n", namespace(host), "route", "add", "default", "via", "10.77.\(subnet).1"])
            }
        } catch {
            remove()
            throw error
        }
    }

    /// Removes the namespaces (and with them their links).
    func remove() {
        for host in ["hub", "fleet", "town"] { _ = try? Self.ip(["netns", "del", namespace(host)]) }
    }

    /// Takes the hub's link toward `host` down or up.
    func setLink(toward host: String, up: Bool) throws {
        try Self.ip(["-n", namespace("hub"), "link", "set", hubLink(toward: host), up ? "up" : "down"])
    }

    /// A process that runs `arguments` on `host`, its output to `log`.
    func process(on host: String, _ arguments: [String], log: URL, environment: [String: String] = [:]) throws -> Process {
        // A process started again writes after its earlier start's lines, not over them.
        if !FileManager.default.fileExists(atPath: log.path) {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = ["netns", "exec", namespace(host)] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let handle = try FileHandle(forWritingTo: log)
        try handle.seekToEnd()
        process.standardOutput = handle
        process.standardError = handle
        return process
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    @discardableResult
    private static func ip(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let pipe = ChildProcess.pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try ChildProcess.run(process)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "ip \(arguments.joined(separator: " ")): \(output)")
        }
        return output
    }
}
