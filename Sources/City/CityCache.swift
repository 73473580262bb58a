import Foundation

/// Where processes keep what they make of a city that every process and every run would
/// otherwise make again — its imported roads (``RoadGraphStore``) and routing hierarchies
/// (``HierarchyStore``) — and for which build.
public enum CityCache {
    /// `$RIBCITY_CACHE` (`off`: nowhere), else `$XDG_CACHE_HOME/ribcity`, else `~/.cache/ribcity`.
    public static let directory: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["RIBCITY_CACHE"], !chosen.isEmpty { return chosen == "off" ? nil : chosen }
        if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            return (cache as NSString).appendingPathComponent("ribcity")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".cache/ribcity")
    }()

    /// This build: the running executable's path, size and modification time, so that a rebuilt
    /// program (whose import or contraction may differ) never reads what an older one made.
    public static let build: UInt32 = {
        // The link's own attributes are the process's (its start time): those of what it names.
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? Bundle.main.executablePath ?? ""
        let attributes = try? FileManager.default.attributesOfItem(atPath: executable)
        let size = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return CRC32.of(Array("\(executable) \(size) \(modified)".utf8))
    }()

    /// How many of the city's files a directory keeps: every build writes its own, and a
    /// developer rebuilds all day.
    static let kept = 48

    /// Removes the city's files in `directory` beyond the ``kept`` newest (by modification
    /// time); other files are left alone, and so is anything that cannot be read or removed.
    static func prune(_ directory: String, keeping limit: Int = kept) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return }
        let ours = names.filter { $0.hasSuffix(".rrg") || $0.hasSuffix(".rch") }
        guard ours.count > limit else { return }
        let dated = ours.map { name -> (path: String, modified: Date) in
            let path = (directory as NSString).appendingPathComponent(name)
            return (path, (try? manager.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast)
        }
        for file in dated.sorted(by: { ($0.modified, $0.path) > ($1.modified, $1.path) }).dropFirst(limit) {
            try? manager.removeItem(atPath: file.path)
        }
    }
}
