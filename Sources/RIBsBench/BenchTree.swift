import RIBs

// The benchmark's RIB: a viewless node whose interactor observes a stream while active, as the
// rider app's interactors do.

final class BenchInteractor: Interactor {
    let model: ModelStream<Int>
    private(set) var seen = 0

    init(model: ModelStream<Int>) {
        self.model = model
    }

    override func didBecomeActive() {
        bindToActivePeriod(model.observe { [weak self] value in self?.seen = value })
    }
}

final class BenchRouter: LaunchRouter<BenchInteractor> {}

final class BenchComponent: Component<EmptyDependency> {
    var model: ModelStream<Int> { shared { ModelStream(0) } }
}

/// Builds the 8-RIB tree: a root with two children, which have three and two children.
func buildTree() -> BenchRouter {
    let component = BenchComponent(dependency: EmptyDependency())
    func make() -> BenchRouter { BenchRouter(interactor: BenchInteractor(model: component.model)) }
    let root = make()
    let left = make()
    let right = make()
    root.attachChild(left)
    root.attachChild(right)
    for _ in 0..<3 { left.attachChild(make()) }
    for _ in 0..<2 { right.attachChild(make()) }
    return root
}

/// The baseline: the same sixteen objects (a router-like and an interactor-like object per
/// node) wired into the same tree by hand, with no lifecycle, streams or bookkeeping.
final class PlainNode {
    let partner = PlainPartner()
    var children: [PlainNode] = []
}

final class PlainPartner {
    var active = false
}

func buildPlainTree() -> PlainNode {
    let root = PlainNode()
    let left = PlainNode()
    let right = PlainNode()
    root.children = [left, right]
    left.children = [PlainNode(), PlainNode(), PlainNode()]
    right.children = [PlainNode(), PlainNode()]
    return root
}
