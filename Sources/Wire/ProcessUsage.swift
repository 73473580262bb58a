import Foundation
import SimulatedTime

/// CPU time and resident memory of this process, for its `ProcessStatus` reports.
public struct ProcessUsage: Sendable {
    public let cpuSeconds: Double
    public let residentBytes: UInt64
    /// The most this process was resident at any time so far.
    public let peakResidentBytes: UInt64

    public static func current() -> ProcessUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        // /proc/self/statm: size and resident, in pages.
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { UInt64($0) } ?? 0
        let resident = pages * UInt64(sysconf(Int32(_SC_PAGESIZE)))
        // ru_maxrss is in kilobytes on Linux. The kernel keeps it and statm's count from per-CPU
        // counters it folds in at different times, so the peak can read a little below the resident
        // figure taken a moment later; a peak is never less than what is held now.
        return ProcessUsage(
            cpuSeconds: cpu, residentBytes: resident, peakResidentBytes: max(resident, UInt64(max(0, usage.ru_maxrss)) * 1_024))
    }
}

extension ProcessStatus {
    /// This process's health report now: what the caller counts, with its pid, CPU time and
    /// resident memory filled in, and `lagSeconds` (simulated) as whole milliseconds.
    public static func current(
        role: Role, processID: String, messagesIn: Int, messagesOut: Int, apps: Int, lagSeconds: Double,
        _ fill: (inout ProcessStatus) -> Void = { _ in }
    ) -> ProcessStatus {
        let usage = ProcessUsage.current()
        var status = ProcessStatus.with {
            $0.role = role
            $0.processID = processID
            $0.pid = getpid()
            $0.messagesIn = UInt64(messagesIn)
            $0.messagesOut = UInt64(messagesOut)
            $0.apps = UInt32(apps)
            $0.cpuSeconds = usage.cpuSeconds
            $0.rssBytes = usage.residentBytes
            $0.lag = SimDuration(seconds: lagSeconds)
        }
        fill(&status)
        return status
    }
}
