/// How a city's drivers and rides are split between its driver and rider processes. Every
/// process prepares the same topology with the same seed and takes its share by this rule, so
/// the processes agree on who is whom without telling each other.
public struct ProcessShare: Sendable, Equatable {
    /// This process's index, from 0.
    public let index: Int
    /// How many processes share the work.
    public let processes: Int

    public init(index: Int, of processes: Int) {
        precondition(processes > 0 && (0..<processes).contains(index), "process \(index) of \(processes) does not exist")
        self.index = index
        self.processes = processes
    }

    /// Drivers go in blocks: process 0 gets the first `⌈count / processes⌉`, and so on.
    public func drivers(of count: Int) -> Range<Int> {
        let block = (count + processes - 1) / processes
        return min(count, index * block)..<min(count, (index + 1) * block)
    }

    /// Rides are dealt round the processes: every `processes`-th, starting at `index`.
    public func takesRide(_ number: Int) -> Bool { number % processes == index }

    /// The process of `processes` whose share has driver `number` of `count`, or nil for none.
    public static func process(ofDriver number: Int, of count: Int, processes: Int) -> Int? {
        guard processes > 0, (0..<count).contains(number) else { return nil }
        let block = (count + processes - 1) / processes
        return number / block
    }

    /// The process of `processes` whose share has ride `number`.
    public static func process(ofRide number: Int, processes: Int) -> Int? {
        guard processes > 0, number >= 0 else { return nil }
        return number % processes
    }
}
