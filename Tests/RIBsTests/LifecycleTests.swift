import Testing

@testable import RIBs

/// An interactor that records its lifecycle.
final class RecordingInteractor: Interactor {
    private(set) var events: [String] = []
    override func didBecomeActive() { events.append("active") }
    override func willResignActive() { events.append("resign") }
}

final class NodeRouter: Router<RecordingInteractor> {
    private(set) var loads = 0
    override func didLoad() { loads += 1 }
}

/// Routers whose names test the rule: a generic one, and one without the usual suffix.
final class ListRouter<Element>: Router<RecordingInteractor> {}
final class Switchboard: Router<RecordingInteractor> {}

func node() -> NodeRouter { NodeRouter(interactor: RecordingInteractor()) }

/// An active root with a child and a grandchild attached.
func activeTree() -> (root: NodeRouter, child: NodeRouter, grandchild: NodeRouter) {
    let root = node()
    let child = node()
    let grandchild = node()
    root.interactable.activate()
    root.load()
    root.attachChild(child)
    child.attachChild(grandchild)
    return (root, child, grandchild)
}

@Suite("Interactor and router lifecycle, as in the reference")
struct LifecycleTests {
    @Test("Activation and deactivation are idempotent and call their hooks once")
    func idempotentActivation() {
        let interactor = RecordingInteractor()
        interactor.activate()
        interactor.activate()
        #expect(interactor.isActive)
        interactor.deactivate()
        interactor.deactivate()
        #expect(!interactor.isActive)
        #expect(interactor.events == ["active", "resign"])
    }

    @Test("The is-active stream replays its last value to new observers")
    func isActiveReplays() {
        let interactor = RecordingInteractor()
        var seen: [Bool] = []
        let early = interactor.isActiveStream.observe { seen.append($0) }
        interactor.activate()
        var late: [Bool] = []
        let second = interactor.isActiveStream.observe { late.append($0) }
        interactor.deactivate()
        #expect(seen == [false, true, false])
        #expect(late == [true, false])
        _ = (early, second)
    }

    @Test("Attaching to an active parent loads the child once and activates its subtree")
    func attachActivatesSubtree() {
        let root = node()
        let child = node()
        let grandchild = node()
        child.attachChild(grandchild)
        root.interactable.activate()
        root.load()
        root.attachChild(child)
        #expect(root.children.count == 1)
        #expect(child.loads == 1)
        #expect(child.interactable.isActive)
        #expect(grandchild.interactable.isActive)
    }

    @Test("Wiring mistakes stop a debug build: a child attached twice, or attached where another parent holds it")
    func wiringMistakes() async {
        await #expect(processExitsWith: .failure) {
            let root = node()
            let child = node()
            root.attachChild(child)
            root.attachChild(child)
        }
        await #expect(processExitsWith: .failure) {
            let first = node()
            let second = node()
            let child = node()
            first.attachChild(child)
            second.attachChild(child)
        }
    }

    @Test("A child attached to an inactive parent waits for the parent's activation")
    func attachToInactiveParent() {
        let root = node()
        root.load()
        let child = node()
        root.attachChild(child)
        #expect(!child.interactable.isActive)
        root.interactable.activate()
        #expect(child.interactable.isActive)
    }

    @Test("Detaching deactivates the whole subtree, deepest first")
    func detachDeactivatesSubtree() {
        let (root, child, grandchild) = activeTree()
        #expect(grandchild.interactable.isActive)
        root.detachChild(child)
        #expect(root.children.isEmpty)
        #expect(!child.interactable.isActive)
        #expect(!grandchild.interactable.isActive)
        #expect(child.interactor.events == ["active", "resign"])
    }

    @Test("Deactivating a parent cascades, and reactivating it brings the subtree back")
    func cascade() {
        let (root, child, grandchild) = activeTree()
        root.interactable.deactivate()
        #expect(!child.interactable.isActive && !grandchild.interactable.isActive)
        root.interactable.activate()
        #expect(child.interactable.isActive && grandchild.interactable.isActive)
    }

    @Test("A released router deactivates its interactor and its children")
    func releasedRouterDetaches() {
        let child = node()
        weak var weakRoot: NodeRouter?
        do {
            let root = node()
            weakRoot = root
            root.interactable.activate()
            root.load()
            root.attachChild(child)
            #expect(child.interactable.isActive)
        }
        #expect(weakRoot == nil)
        #expect(!child.interactable.isActive)
    }

    @Test("A router says whether its interactor is active, as the interactor does, through attach and detach")
    func routerIsActive() {
        let (root, child, grandchild) = activeTree()
        let routers: [any Routing] = [root, child, grandchild]
        #expect(routers.map(\.isActive) == [true, true, true])
        root.detachChild(child)
        #expect(routers.map(\.isActive) == [true, false, false])
        #expect(routers.map(\.isActive) == routers.map(\.interactable.isActive))
        let loose = node()
        #expect(!loose.isActive)
        loose.interactable.activate()
        #expect(loose.isActive)
    }

    @Test("Router names come from their type: without \"Router\" at the end, nor generic arguments")
    func names() {
        #expect(node().name == "Node")
        #expect(LoggedInRouter(interactor: LoggedInInteractor(session: ModelStream(nil))).name == "LoggedIn")
        #expect(ListRouter<Int>(interactor: RecordingInteractor()).name == "List")
        #expect(Switchboard(interactor: RecordingInteractor()).name == "Switchboard")
    }

    @Test("show(_:) keeps one exclusive child: the one shown before is detached, the same type is not built again")
    func showSwitchesExclusiveChildren() {
        let (root, _, _) = activeTree()
        var built = 0
        root.show(NodeRouter.self) {
            built += 1; return node()
        }
        let first = root.shown
        root.show(NodeRouter.self) {
            built += 1; return node()
        }
        #expect(built == 1 && root.shown === first && root.children.count == 2)
        let other = node()
        root.show(other)
        #expect(root.shown === other && !root.children.contains { $0 === first })
        #expect(!(first?.interactable.isActive ?? true), "the child shown before was deactivated")
        root.detachChild(other)
        #expect(root.shown == nil)
    }
}
