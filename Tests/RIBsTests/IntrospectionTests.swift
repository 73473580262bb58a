import Foundation
import Testing

@testable import RIBs

/// A clock the test moves by hand.
final class ManualClock {
    var now: Duration = .zero
}

@Suite("Leak detection and introspection")
struct IntrospectionTests {
    @Test("A detached RIB that stays alive is reported with its path, once its budget has passed")
    func leakReported() throws {
        let clock = ManualClock()
        let context = RIBContext(leakBudget: .seconds(2)) { clock.now }
        let root = RootBuilder(dependency: EmptyDependency()).build()
        root.launch(context: context)
        let leaked = try #require(root.current as? LoggedOutRouter)  // held on purpose: a leak
        var reported: [LeakReport] = []
        context.leakDetector.onLeak = { reported.append($0) }

        leaked.interactor.signInTapped(name: "Ada")
        #expect(context.leakDetector.pendingCount == 2)
        clock.now = .seconds(1)
        context.leakDetector.check()
        #expect(reported.isEmpty, "within budget")
        clock.now = .seconds(3)
        context.leakDetector.check()
        #expect(reported.map(\.path).sorted() == ["/Root/LoggedOut", "/Root/LoggedOut (interactor)"])
        #expect(context.leakDetector.leakCount == 2)
        #expect(context.leakDetector.isIdle)
        withExtendedLifetime(leaked) {}
    }

    @Test(
        "A leak's path is put into words when it is reported: under the parent as it is then, or the RIB's name alone once the parent is gone"
    )
    func leakPathWhenParentIsGone() throws {
        let clock = ManualClock()
        let context = RIBContext(leakBudget: .seconds(2)) { clock.now }
        var root: RootRouter? = RootBuilder(dependency: EmptyDependency()).build()
        root!.launch(context: context)
        let leaked = try #require(root!.current as? LoggedOutRouter)  // held on purpose: a leak
        leaked.interactor.signInTapped(name: "Ada")
        #expect(context.leakDetector.pendingCount == 2)
        root = nil
        clock.now = .seconds(3)
        context.leakDetector.check()
        #expect(context.leakDetector.reports.map(\.path).sorted() == ["/LoggedOut", "/LoggedOut (interactor)"])
        #expect(context.leakDetector.leakCount == 2 && context.leakDetector.isIdle)
        withExtendedLifetime(leaked) {}
    }

    @Test("A detached RIB that goes away is not a leak")
    func noLeak() {
        let clock = ManualClock()
        let context = RIBContext(leakBudget: .seconds(1)) { clock.now }
        let root = RootBuilder(dependency: EmptyDependency()).build()
        root.launch(context: context)
        (root.current as? LoggedOutRouter)?.interactor.signInTapped(name: "Ada")
        root.interactor.auth.signOut()
        clock.now = .seconds(5)
        context.leakDetector.check()
        #expect(context.leakDetector.leakCount == 0)
        #expect(context.leakDetector.isIdle)
    }

    @Test("Cancelling a check twice does not make the detector say it is done too early")
    func cancelTwice() {
        var detector = LeakDetector(budget: .seconds(1)) { .zero }
        let first = NSObject()
        let second = NSObject()
        let check = detector.expectDeallocate(first, path: "/A")
        detector.expectDeallocate(second, path: "/B")
        detector.cancel(check)
        detector.cancel(check)
        #expect(detector.pendingCount == 1)
        #expect(!detector.isIdle, "B is still pending")
        _ = (first, second)
    }

    @Test("Every attach, detach, activation and deactivation is an event with its time and path")
    func events() {
        let clock = ManualClock()
        let context = RIBContext { clock.now }
        var events: [RIBEvent] = []
        let subscription = context.inspector.observe { events.append($0) }
        let root = RootBuilder(dependency: EmptyDependency()).build()
        clock.now = .milliseconds(5)
        root.launch(context: context)
        clock.now = .milliseconds(9)
        (root.current as? LoggedOutRouter)?.interactor.signInTapped(name: "Ada")
        let lines = events.map { "\($0.kind.rawValue) \($0.path) \($0.time)" }
        #expect(
            lines == [
                "activated /Root 0.005 seconds",
                "attached /Root/LoggedOut 0.005 seconds",
                "activated /Root/LoggedOut 0.005 seconds",
                "deactivated /Root/LoggedOut 0.009 seconds",
                "detached /Root/LoggedOut 0.009 seconds",
                "attached /Root/LoggedIn 0.009 seconds",
                "activated /Root/LoggedIn 0.009 seconds",
            ])
        #expect(context.inspector.counts[.attached] == 2)
        _ = subscription
    }

    @Test("The live tree snapshots to JSON, viewful and viewless RIBs told apart")
    func snapshot() throws {
        let root = RootBuilder(dependency: EmptyDependency()).build()
        root.launch()
        let form = signIn()
        root.current?.attachChild(form)
        let tree = root.snapshot()
        #expect(tree.count == 3)
        #expect(tree.children.first?.name == "LoggedOut")
        #expect(tree.children.first?.children.first?.viewful == true)
        #expect(tree.children.first?.children.first?.screen == "SignIn(name: , canSubmit: false)")
        #expect(tree.viewful == false && tree.active)
        let json = try JSONEncoder().encode(tree)
        #expect(try JSONDecoder().decode(RIBTreeSnapshot.self, from: json) == tree)
        #expect(String(decoding: json, as: UTF8.self).contains("\"path\":\"\\/Root\\/LoggedOut\\/SignIn\""))
    }
}
