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
    private struct Expectation {
        let id: UInt64
        weak var object: AnyObject?
        let path: String
        let detachedAt: Duration
        let deadline: Duration
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

    /// Expectations not yet met or failed.
    public var pendingCount: Int { pending.count }

    /// Whether no expectation is pending (the reference's "done" status).
    public var isIdle: Bool { pending.isEmpty }

    /// Expects `object` to deallocate within the budget.
    @discardableResult
    public mutating func expectDeallocate(_ object: AnyObject, path: String) -> LeakCheck {
        nextID += 1
        let time = now()
        pending.append(Expectation(id: nextID, object: object, path: path, detachedAt: time, deadline: time + budget))
        return LeakCheck(id: nextID)
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
        let expectations = pending
        pending.removeAll { $0.object == nil || time >= $0.deadline }
        releaseIfEmpty()
        for expectation in expectations where expectation.object != nil && time >= expectation.deadline {
            let report = LeakReport(path: expectation.path, detachedAt: expectation.detachedAt, detectedAt: time)
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
