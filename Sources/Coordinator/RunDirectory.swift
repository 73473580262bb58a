import Foundation
import Monitor

/// A run's directory: the topology as given (`topology.yaml`) and as resolved (`resolved.yaml`:
/// every setting spelled out, a topology `launch` takes as it is), one log per process
/// (restarts append to it), the run's tables and the final summary.
public struct RunDirectory: Sendable {
    public let path: String

    /// Creates `<parent>/<name>-<UTC time>` (with a suffix if that exists) and copies the topology
    /// in, with `resolved` (the resolved topology's YAML) beside it.
    public init(parent: String, name: String, topologyFile: String, resolved: String, now: Date = Date()) throws {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        formatter.timeZone = TimeZone(identifier: "UTC")
        let base = (parent as NSString).appendingPathComponent("\(name)-\(formatter.string(from: now))")
        var candidate = base
        var suffix = 1
        while FileManager.default.fileExists(atPath: candidate) {
            suffix += 1
            candidate = "\(base)-\(suffix)"
        }
        try FileManager.default.createDirectory(atPath: candidate, withIntermediateDirectories: true)
        path = candidate
        try FileManager.default.copyItem(atPath: topologyFile, toPath: file("topology.yaml"))
        try Data(resolved.utf8).write(to: URL(fileURLWithPath: file("resolved.yaml")))
    }

    /// A run directory made before (for reports).
    public init(existing path: String) {
        self.path = path
    }

    /// The run in `parent` that ended last (whose summary was written last), if any.
    public static func latest(in parent: String) -> RunDirectory? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        let ended = names.compactMap { name -> (Date, String)? in
            let path = (parent as NSString).appendingPathComponent(name)
            let summary = (path as NSString).appendingPathComponent("summary.json")
            guard let written = (try? FileManager.default.attributesOfItem(atPath: summary))?[.modificationDate] as? Date
            else { return nil }
            return (written, path)
        }
        return ended.max { ($0.0, $0.1) < ($1.0, $1.1) }.map { RunDirectory(existing: $0.1) }
    }

    public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// The log of process `name`, opened for appending (created if new).
    public func log(for name: String) throws -> FileHandle {
        let path = file("\(name).log")
        if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        return handle
    }

    /// What process `name` has logged so far; with `latestStartOnly`, only what its latest start wrote (after
    /// the supervisor's last `--- restart` line).
    public func logText(of name: String, latestStartOnly: Bool = false) -> String {
        let text = (try? String(contentsOfFile: file("\(name).log"), encoding: .utf8)) ?? ""
        guard latestStartOnly, let marker = text.range(of: Supervisor.restartMarker, options: .backwards) else { return text }
        return String(text[marker.upperBound...])
    }

    public func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
    }
}

extension RunDirectory {
    /// The run's `summary.json`; a missing or unreadable one is an error naming the file.
    public func summary() throws(RunComparisonError) -> RunSummary {
        let path = file("summary.json")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RunComparisonError(description: "\(path): missing — is \(self.path) a run directory?")
        }
        do {
            return try JSONDecoder().decode(RunSummary.self, from: data)
        } catch {
            throw RunComparisonError(description: "\(path): not a run summary (it does not read as one)")
        }
    }

    /// One of the run's CSV tables (`trips.csv`, `drivers.csv`) as rows keyed by its header, or
    /// nil if the run has none.
    public func table(_ name: String) -> [[String: String]]? {
        (try? String(contentsOfFile: file(name), encoding: .utf8)).map(CSV.rows(of:))
    }
}
