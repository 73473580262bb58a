import Foundation
import RIBs

/// Measures RIB trees: build + attach + activate + deactivate + release cycles per second on one
/// core, against hand-wired plain objects; and memory per live, idle, active tree.
public struct RIBsBenchmark: Sendable {
    public var cycles: Int
    public var liveTrees: Int

    public init(cycles: Int = 200_000, liveTrees: Int = 100_000) {
        self.cycles = cycles
        self.liveTrees = liveTrees
    }

    public struct Result: Sendable {
        public let cyclesPerSecond: Double
        public let baselineCyclesPerSecond: Double
        public let bytesPerLiveTree: Double
        public let liveTrees: Int
        public let ribsPerTree: Int

        public var report: String {
            """
            RIB trees of \(ribsPerTree) RIBs (build, attach, launch, deactivate, release), one core:
              ribcity RIBs      \(Int(cyclesPerSecond)) trees/s  (\(String(format: "%.2f", 1e6 / cyclesPerSecond)) µs per tree)
              plain objects     \(Int(baselineCyclesPerSecond)) trees/s  (the same 16 objects wired by hand)
              ratio             \(String(format: "%.2f", cyclesPerSecond / baselineCyclesPerSecond))× the plain objects' rate
            Live idle trees: \(liveTrees) launched trees held: \(Int(bytesPerLiveTree)) bytes per tree, \
            \(String(format: "%.0f", bytesPerLiveTree * Double(liveTrees) / 1_048_576)) MiB in all
            """
        }
    }

    public func run() -> Result {
        var sink = 0
        // Warm up allocator and caches.
        for _ in 0..<1_000 { sink &+= cycle() }
        let clock = ContinuousClock()
        let ribs =
            clock.measure {
                for _ in 0..<cycles { sink &+= cycle() }
            } / .seconds(1)
        let plain =
            clock.measure {
                for _ in 0..<cycles {
                    let tree = buildPlainTree()
                    tree.partner.active = true
                    sink &+= tree.children.count
                }
            } / .seconds(1)

        let before = residentBytes()
        var trees: [BenchRouter] = []
        trees.reserveCapacity(liveTrees)
        for _ in 0..<liveTrees {
            let tree = buildTree()
            tree.launch()
            trees.append(tree)
        }
        let after = residentBytes()
        sink &+= trees.count
        let ribsPerTree = trees.first?.snapshot().count ?? 0
        trees.removeAll()
        precondition(sink != 0)
        return Result(
            cyclesPerSecond: Double(cycles) / ribs, baselineCyclesPerSecond: Double(cycles) / plain,
            bytesPerLiveTree: Double(after - before) / Double(liveTrees), liveTrees: liveTrees,
            ribsPerTree: ribsPerTree)
    }

    private func cycle() -> Int {
        let tree = buildTree()
        tree.launch()
        let active = tree.children[0].interactable.isActive ? 1 : 0
        tree.interactable.deactivate()
        return active
    }

    /// Resident memory of this process, from /proc/self/statm.
    private func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
