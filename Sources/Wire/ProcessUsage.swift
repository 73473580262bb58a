import Foundation

/// CPU time and resident memory of this process, for its `ProcessStatus` reports.
public struct ProcessUsage: Sendable {
    public let cpuSeconds: Double
    public let residentBytes: UInt64

    public static func current() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        // /proc/self/statm: size and resident, in pages.
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { UInt64($0) } ?? 0
        return ProcessUsage(cpuSeconds: cpu, residentBytes: pages * UInt64(sysconf(Int32(_SC_PAGESIZE))))
    }
}
