import Randomness

/// Who a rider knows among the city's riders, drawn from the rider's seed. Rides are numbered
/// in the order they are asked for, so riders with numbers close together ride at about the
/// same time: friends drawn near a rider's number are often in the app at once.
enum RiderCircle {
    /// How many friends among the city's riders each rider has (fewer in a tiny city).
    static let friendCount = 6
    /// How far apart (in ride numbers) friends are drawn.
    static let reach = 40

    /// The rider's friends, by ride number, in the order drawn.
    static func friends(of rider: Int, among riders: Int, seed: UInt64) -> [Int] {
        var random = SeededGenerator(seed: seed ^ 0xF12E)
        let candidates = (max(0, rider - reach)...max(0, min(riders - 1, rider + reach))).filter { $0 != rider }
        guard !candidates.isEmpty else { return [] }
        var picked: [Int] = []
        var pool = candidates
        while picked.count < friendCount, !pool.isEmpty {
            picked.append(pool.remove(at: Int.random(in: 0..<pool.count, using: &random)))
        }
        return picked
    }
}
