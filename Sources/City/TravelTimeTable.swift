/// Fastest travel times from each of some sources to each of some targets (road nodes), in
/// seconds: what a router answers for a whole dispatch round at once.
public struct TravelTimeTable: Sendable, Equatable {
    public let sources: [Int]
    public let targets: [Int]
    /// Row by source; `nil` where the target cannot be reached.
    private let seconds: [Double?]
    private let row: [Int: Int]
    private let column: [Int: Int]

    /// The table whose entry for source `i` and target `j` is `time(i, j)`.
    public init(sources: [Int], targets: [Int], time: (_ source: Int, _ target: Int) -> Double?) {
        self.sources = sources
        self.targets = targets
        var seconds: [Double?] = []
        seconds.reserveCapacity(sources.count * targets.count)
        for i in sources.indices {
            for j in targets.indices { seconds.append(time(i, j)) }
        }
        self.seconds = seconds
        row = Dictionary(sources.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        column = Dictionary(targets.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The time from the `i`th source to the `j`th target.
    public subscript(source i: Int, target j: Int) -> Double? { seconds[i * targets.count + j] }

    /// The time from road node `start` to road node `end`: `nil` if unreachable or if either is
    /// not among the table's sources and targets.
    public func travelTime(from start: Int, to end: Int) -> Double? {
        guard let i = row[start], let j = column[end] else { return nil }
        return self[source: i, target: j]
    }

    /// The same table with every time changed by `transform` (given the time and the two nodes).
    public func map(_ transform: (_ seconds: Double, _ start: Int, _ end: Int) -> Double) -> TravelTimeTable {
        TravelTimeTable(sources: sources, targets: targets) { i, j in
            self[source: i, target: j].map { transform($0, sources[i], targets[j]) }
        }
    }
}
