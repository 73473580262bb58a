/// A RIB object that did not go away after it was detached.
public struct LeakReport: Sendable, Equatable, Codable {
    /// The RIB's path in the tree, e.g. `/Root/LoggedIn/Ride (interactor)`.
    public let path: String
    /// When it was detached and when the leak was declared, on the tree's clock.
    public let detachedAt: Duration
    public let detectedAt: Duration
}

/// A pending expectation that an object deallocates; cancel it through the detector.
public struct LeakCheck: Hashable, Sendable {
    let id: UInt64
}

/// Expects detached routers, interactors and views to deallocate within a time budget.
///
/// Deterministic: time comes from the injected clock, and expectations are evaluated when the
/// owner calls ``check()`` (for example on every tick of the simulated clock). A leak is
/// reported and counted, never a crash.
///
/// A value, kept in place by its owner (a tree's ``RIBContext``): one allocation fewer per app.
public struct LeakDetector {
    /// What one expectation is for: an object and its path, or a detached RIB — its router,
    /// interactor and view — with its name and the router it was detached from, whose path is
    /// put into words only if something leaks (a path made at every detach was a twentieth of a
    /// rider process's instructions: every ancestor's type name, demangled).
    private struct Expectation {
        let id: UInt64
        weak var object: AnyObject?
        weak var interactor: AnyObject?
        weak var view: AnyObject?
        /// The whole path of `object`, or (for a detached RIB) its name.
        let name: String
        /// For a detached RIB: the router it was detached from.
        let parent: WeakRouting?
        /// How many of `object`, `interactor` and `view` were still alive at the last look.
        var remaining: Int
        let detachedAt: Duration
        let deadline: Duration

        /// How many of its objects are still alive.
        var aliveCount: Int { (object == nil ? 0 : 1) + (interactor == nil ? 0 : 1) + (view == nil ? 0 : 1) }

        /// The paths of the objects still alive: what leaked, once the deadline has passed.
        func leakedPaths() -> [String] {
            guard let parent else { return object == nil ? [] : [name] }
            let path = (parent.router?.path ?? "") + "/" + name
            return [(object, ""), (interactor, " (interactor)"), (view, " (view)")].compactMap { $0.0 == nil ? nil : path + $0.1 }
        }
    }

    /// A router held weakly (an enum payload or a tuple cannot be `weak` itself).
    private struct WeakRouting {
        weak var router: (any Routing)?
    }

    /// How long a detached object may live.
    public let budget: Duration
    /// Leaks found so far.
    public private(set) var leakCount = 0
    /// The most recent reports (at most 100).
    public private(set) var reports: [LeakReport] = []
    /// Called on each leak found, during ``check()``: it must not use the detector itself.
    public var onLeak: ((LeakReport) -> Void)?
    private let now: () -> Duration
    /// In the order expected (ids ascending). An array, emptied to no storage at all: a detector
    /// per app, thousands of apps per process, and most of the time nothing pending.
    private var pending: [Expectation] = []
    private var nextID: UInt64 = 0

    /// A detector on the clock `now` that allows detached objects `budget` to deallocate.
    public init(budget: Duration = .seconds(1), now: @escaping () -> Duration) {
        self.budget = budget
        self.now = now
    }

    /// Objects expected to deallocate whose expectation has not yet been met or failed (as of
    /// the last ``check()`` for those expected before it).
    public var pendingCount: Int { pending.reduce(0) { $0 + $1.remaining } }

    /// Whether no expectation is pending (the reference's "done" status).
    public var isIdle: Bool { pending.isEmpty }

    /// Expects `object` to deallocate within the budget.
    @discardableResult
    public mutating func expectDeallocate(_ object: AnyObject, path: String) -> LeakCheck {
        nextID += 1
        let time = now()
        pending.append(
            Expectation(
                id: nextID, object: object, name: path, parent: nil, remaining: 1, detachedAt: time, deadline: time + budget))
        return LeakCheck(id: nextID)
    }

    /// Expects a RIB just detached from `parent` — its router, interactor and view (if any) — to
    /// deallocate within the budget. A leak's path is `parent`'s path then, or the RIB's own name
    /// alone if `parent` is gone by then.
    mutating func expectDetached(
        _ router: AnyObject, interactor: AnyObject, view: AnyObject?, named name: String, from parent: any Routing
    ) {
        nextID += 1
        let time = now()
        pending.append(
            Expectation(
                id: nextID, object: router, interactor: interactor, view: view, name: name,
                parent: WeakRouting(router: parent), remaining: view == nil ? 2 : 3, detachedAt: time, deadline: time + budget))
    }

    /// Drops an expectation. Idempotent: cancelling twice, or after it resolved, changes nothing
    /// (the reference decremented its pending count twice here, and said "done" too early).
    public mutating func cancel(_ check: LeakCheck) {
        pending.removeAll { $0.id == check.id }
        releaseIfEmpty()
    }

    /// Settles expectations: deallocated objects are done, objects past their deadline are leaks.
    public mutating func check() {
        guard !pending.isEmpty else { return }
        let time = now()
        var leaked: [LeakReport] = []
        var index = 0
        while index < pending.count {
            if time >= pending[index].deadline {
                for path in pending[index].leakedPaths() {
                    leaked.append(LeakReport(path: path, detachedAt: pending[index].detachedAt, detectedAt: time))
                }
                pending.remove(at: index)
                continue
            }
            let alive = pending[index].aliveCount
            if alive == 0 {
                pending.remove(at: index)
            } else {
                pending[index].remaining = alive
                index += 1
            }
        }
        releaseIfEmpty()
        for report in leaked {
            leakCount += 1
            reports.append(report)
            if reports.count > 100 { reports.removeFirst() }
            onLeak?(report)
        }
    }

    private mutating func releaseIfEmpty() {
        if pending.isEmpty { pending = [] }
    }
}
