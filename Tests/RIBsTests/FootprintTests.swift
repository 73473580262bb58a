import Testing

@testable import RIBs

/// The behaviours that the small-footprint representations must keep: streams with their first
/// observer inline, interactors that tell their router directly and make their stream only when
/// asked, unowned parents, and detectors and inspectors that hold nothing while idle.
@Suite("Small RIBs keep their behaviour")
struct FootprintTests {
    @Test("Observers are called in subscription order after the first one cancels, and again after all cancel")
    func observerOrder() {
        let stream = ModelStream(0)
        var calls: [String] = []
        let a = stream.observe { calls.append("a\($0)") }
        let b = stream.observe { calls.append("b\($0)") }
        let c = stream.observe { calls.append("c\($0)") }
        a.cancel()
        stream.send(1)
        #expect(calls == ["a0", "b0", "c0", "b1", "c1"])
        #expect(stream.observerCount == 2)
        b.cancel()
        c.cancel()
        #expect(stream.observerCount == 0)
        let d = stream.observe { calls.append("d\($0)") }
        stream.send(2)
        #expect(calls.suffix(2) == ["d1", "d2"])
        _ = d
    }

    @Test("An observer that comes after the first has gone is called after those still subscribed")
    func newcomerAfterFirstLeft() {
        let stream = ModelStream(0)
        var calls: [String] = []
        let a = stream.observe { calls.append("a\($0)") }
        let b = stream.observe { calls.append("b\($0)") }
        a.cancel()
        let c = stream.observe { calls.append("c\($0)") }
        stream.send(1)
        #expect(calls == ["a0", "b0", "c0", "b1", "c1"])
        b.cancel()
        stream.send(2)
        #expect(calls.suffix(1) == ["c2"])
        #expect(stream.observerCount == 1)
        _ = c
    }

    @Test("A subscription that outlives its stream cancels quietly")
    func subscriptionOutlivesStream() {
        var stream: ModelStream<Int>? = ModelStream(0)
        let subscription = stream!.observe { _ in }
        stream = nil
        subscription.cancel()
        subscription.cancel()
    }

    @Test("An observer that cancels itself while being called is not called again")
    func cancelWhileSending() {
        let stream = ModelStream(0)
        var seen: [Int] = []
        var subscription: Subscription?
        subscription = stream.observe { value in
            seen.append(value)
            if value == 1 { subscription?.cancel() }
        }
        stream.send(1)
        stream.send(2)
        #expect(seen == [0, 1])
    }

    @Test("An observer whose subscription an earlier observer ends (and releases) in the same send is not called")
    func laterObserverEndedDuringSend() {
        let stream = ModelStream(0)
        var seen: [String] = []
        var later: Subscription?
        let earlier = stream.observe { value in
            seen.append("earlier \(value)")
            if value == 1 { later = nil }  // released, as a detached RIB's interactor releases its own
        }
        later = stream.observe { value in seen.append("later \(value)") }
        let last = stream.observe { value in seen.append("last \(value)") }
        stream.send(1)
        #expect(seen == ["earlier 0", "later 0", "last 0", "earlier 1", "last 1"])
        #expect(stream.observerCount == 2 && later == nil)
        _ = (earlier, last)
    }

    @Test("An observer released during a send is not called even when a new subscription made meanwhile takes its place")
    func replacedDuringSend() {
        let stream = ModelStream(0)
        var seen: [String] = []
        var later: Subscription?
        var replacement: Subscription?
        let earlier = stream.observe { value in
            seen.append("earlier \(value)")
            guard value == 1 else { return }
            later = nil  // freed: the next subscription is likely made at its address
            replacement = stream.observe { seen.append("replacement \($0)") }
        }
        later = stream.observe { seen.append("later \($0)") }
        stream.send(1)
        #expect(seen == ["earlier 0", "later 0", "earlier 1", "replacement 1"])
        stream.send(2)
        #expect(seen.suffix(2) == ["earlier 2", "replacement 2"])
        _ = (earlier, later, replacement)
    }

    @Test("A stream that outlives its subscriptions, and subscriptions released in any order, leave nothing behind")
    func releasesInAnyOrder() {
        for streamFirst in [true, false] {
            var stream: ModelStream<Int>? = ModelStream(0)
            var subscriptions = (0..<3).map { _ in stream!.observe { _ in } }
            #expect(stream?.observerCount == 3)
            if streamFirst {
                stream = nil
                subscriptions.removeAll()
            } else {
                subscriptions.remove(at: 1)
                #expect(stream?.observerCount == 2)
                subscriptions.removeAll()
                #expect(stream?.observerCount == 0)
                stream = nil
            }
        }
    }

    @Test("A router follows its interactor without a stream, and a stream asked for later replays the state")
    func routerFollowsDirectly() {
        let (root, child, grandchild) = activeTree()
        #expect(child.interactable.isActive && grandchild.interactable.isActive)
        var seen: [Bool] = []
        let watch = child.interactable.isActiveStream.observe { seen.append($0) }
        root.interactable.deactivate()
        #expect(!child.interactable.isActive && !grandchild.interactable.isActive)
        root.interactable.activate()
        #expect(child.interactable.isActive && grandchild.interactable.isActive)
        #expect(seen == [true, false, true])
        _ = watch
    }

    @Test("A child outliving its parent forgets it: its path is its own, and deactivating it is safe")
    func childOutlivesParent() {
        var parent: NodeRouter? = node()
        let child = node()
        parent!.interactable.activate()
        parent!.load()
        parent!.attachChild(child)
        #expect(child.path == "/Node/Node")
        parent = nil
        #expect(child.path == "/Node")
        #expect(!child.interactable.isActive)
        child.setSubtreeActive(true)
        child.setSubtreeActive(false)
    }

    @Test("A leak detector forgets settled objects and still reports a leak past its budget")
    func detectorSettles() {
        var clock = Duration.zero
        var detector = LeakDetector(budget: .seconds(1)) { clock }
        var gone: NodeRouter? = node()
        let kept = node()
        detector.expectDeallocate(gone!, path: "/Gone")
        detector.expectDeallocate(kept, path: "/Kept")
        let cancelled = detector.expectDeallocate(node(), path: "/Cancelled")
        detector.cancel(cancelled)
        gone = nil
        detector.check()
        #expect(detector.pendingCount == 1 && detector.leakCount == 0)
        clock = .seconds(2)
        detector.check()
        #expect(detector.isIdle && detector.leakCount == 1)
        #expect(detector.reports.map(\.path) == ["/Kept"])
    }

    @Test("An inspector counts events by kind with no observer, and one observing later sees the next ones")
    func inspectorCounts() {
        let context = RIBContext { .zero }
        let root = NodeLaunchRouter(interactor: RecordingInteractor())
        root.launch(context: context)
        root.attachChild(node())
        #expect(context.inspector.counts == [.attached: 1, .activated: 2])
        var kinds: [RIBEvent.Kind] = []
        let watch = context.inspector.observe { kinds.append($0.kind) }
        root.detachAllChildren()
        #expect(kinds == [.deactivated, .detached])
        #expect(context.inspector.counts[.detached] == 1)
        _ = watch
    }
}

final class NodeLaunchRouter: LaunchRouter<RecordingInteractor> {}
