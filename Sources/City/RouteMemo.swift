/// Fastest routes asked for lately, by start and end node. A ride's route is asked for three
/// times, minutes apart: for its quote, for its request's price, and for its trip once the rider
/// is aboard; a route is a pure function of the graph, so the second and third answers are the
/// first one's.
///
/// Two generations bound the memory: answers go into the newer; when it holds `capacity`, it
/// becomes the older and the one before is dropped. A look-up that finds an answer in the older
/// brings it into the newer. What is kept depends only on the order of the questions, never on
/// timing, so a run that asks the same questions gets the same answers either way.
struct RouteMemo {
    private struct Pair: Hashable {
        var start: Int
        var end: Int
    }

    private let capacity: Int
    private var newer: [Pair: Route?] = [:]
    private var older: [Pair: Route?] = [:]

    init(capacity: Int) {
        precondition(capacity > 0, "a memo holds at least one route")
        self.capacity = capacity
    }

    /// The route from `start` to `end` (`nil`: none), remembered or found by `find`.
    mutating func route(from start: Int, to end: Int, find: (Int, Int) -> Route?) -> Route? {
        let pair = Pair(start: start, end: end)
        if let known = newer[pair] { return known }
        let route = older[pair] ?? find(start, end)
        if newer.count >= capacity {
            older = newer
            newer.removeAll(keepingCapacity: true)
        }
        newer[pair] = route
        return route
    }
}
