import Testing

@testable import RIBs

// A viewful RIB: a sign-in screen whose button goes through the presenter to the interactor.
enum SignInAction: Equatable { case typed(String), tappedSignIn }
struct SignInScreen: Equatable, CustomStringConvertible {
    var name = ""
    var canSubmit = false
    var description: String { "SignIn(name: \(name), canSubmit: \(canSubmit))" }
}

final class SignInView: View<SignInScreen, SignInAction> {}

/// What the sign-in interactor asks of its presenter.
protocol SignInPresentable: AnyObject {
    var listener: (any SignInPresentableListener)? { get set }
    func show(name: String)
}

/// What the user asked for on the sign-in screen.
protocol SignInPresentableListener: AnyObject {
    func type(_ text: String)
    func submit()
}

final class SignInPresenter: Presenter<SignInView>, SignInPresentable {
    weak var listener: (any SignInPresentableListener)?

    init() {
        super.init(view: SignInView(showing: SignInScreen()))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func show(name: String) {
        view.render(SignInScreen(name: name, canSubmit: !name.isEmpty))
    }

    private func handle(_ action: SignInAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case let .typed(text): listener.type(text)
        case .tappedSignIn: listener.submit()
        }
    }
}

final class SignInInteractor: PresentableInteractor<any SignInPresentable>, SignInPresentableListener {
    private(set) var name = ""
    private(set) var submitted: [String] = []

    override func didBecomeActive() {
        presenter.listener = self
        presenter.show(name: name)
    }

    override func willResignActive() {
        presenter.listener = nil
    }

    func type(_ text: String) {
        name = text
        presenter.show(name: name)
    }

    func submit() {
        submitted.append(name)
    }
}

final class SignInRouter: ViewableRouter<SignInInteractor, SignInView> {}

func signIn() -> SignInRouter {
    let presenter = SignInPresenter()
    return SignInRouter(interactor: SignInInteractor(presenter: presenter), view: presenter.view)
}

final class CountingWorker: Worker {
    private(set) var starts = 0
    private(set) var stops = 0
    override func didStart() { starts += 1 }
    override func didStop() { stops += 1 }
}

@Suite("Views, presenters and workers")
struct ViewAndWorkerTests {
    @Test(
        "A headless view renders what the presenter says; its actions reach the interactor through the presenter while it is active"
    )
    func headlessView() {
        let router = signIn()
        let view = router.viewController
        view.perform(.typed("ignored"))
        #expect(view.droppedActions == 1, "nobody listens before activation")
        router.interactable.activate()
        view.perform(.typed("Ada"))
        #expect(view.screen.value == SignInScreen(name: "Ada", canSubmit: true))
        view.perform(.tappedSignIn)
        #expect(router.interactor.submitted == ["Ada"])
        #expect(router.view?.screenDescription == "SignIn(name: Ada, canSubmit: true)")
        router.interactable.deactivate()
        view.perform(.tappedSignIn)
        #expect(router.interactor.submitted == ["Ada"])
        #expect(view.droppedActions == 2)
    }

    final class OtherView: View<String, Never> {}
    final class OtherRouter: ViewableRouter<Interactor, OtherView> {}

    /// A loaded root, and a RIB with a view of another type, not attached yet.
    static func rootWithOtherView() -> (Router<Interactor>, OtherRouter) {
        let root = Router(interactor: Interactor())
        root.load()
        return (root, OtherRouter(interactor: Interactor(), view: OtherView(showing: "other")))
    }

    @Test("A person finds the first active view of exactly the type asked for, depth first, and none in an inactive tree")
    func activeViewLookup() {
        let (root, other) = Self.rootWithOtherView()
        let first = signIn()
        let second = signIn()
        root.attachChild(other)
        root.attachChild(first)
        root.attachChild(second)
        #expect(root.activeView(of: SignInView.self) == nil, "nothing is on screen while the tree is inactive")
        root.setSubtreeActive(true)
        #expect(root.activeView(of: SignInView.self) === first.viewController)
        #expect(root.activeView(of: OtherView.self) === other.viewController)
        root.detachChild(first)
        #expect(root.activeView(of: SignInView.self) === second.viewController)
        second.interactable.deactivate()
        #expect(root.activeView(of: SignInView.self) == nil, "an inactive RIB's view is not on screen")
        #expect(root.activeView(of: OtherView.self) === other.viewController)
    }

    @Test("The active views gathered in one walk answer as a lookup of each would, for the tree as it was gathered")
    func activeViewsInOneWalk() {
        let (root, other) = Self.rootWithOtherView()
        let first = signIn(), second = signIn(), nested = signIn()
        root.attachChild(first)
        root.attachChild(other)
        root.attachChild(second)
        other.attachChild(nested)
        #expect(ActiveViews(of: root)[SignInView.self] == nil && ActiveViews(of: root)[OtherView.self] == nil)
        root.setSubtreeActive(true)
        var screen = ActiveViews(of: root)
        #expect(screen[SignInView.self] === first.viewController, "the first in attachment order")
        #expect(screen[OtherView.self] === other.viewController)
        root.detachChild(first)
        #expect(screen[SignInView.self] === first.viewController, "as it was gathered, until gathered again")
        screen = ActiveViews(of: root)
        #expect(screen[SignInView.self] === nested.viewController, "depth first: other's child before other's next sibling")
        #expect(screen[SignInView.self] === root.activeView(of: SignInView.self))
        nested.interactable.deactivate()
        other.interactable.deactivate()
        screen = ActiveViews(of: root)
        #expect(screen[OtherView.self] == nil, "an inactive RIB's view is not on screen, nor its subtree's")
        #expect(
            screen[SignInView.self] === second.viewController && root.activeView(of: SignInView.self) === second.viewController)
    }

    @Test("A worker starts and stops with its interactor until it is stopped")
    func workerFollowsInteractor() async {
        let interactor = RecordingInteractor()
        let worker = CountingWorker()
        worker.start(interactor)
        #expect(!worker.isStarted)
        interactor.activate()
        #expect(worker.isStarted)
        let task = worker.task { while !Task.isCancelled { await Task.yield() } }
        interactor.deactivate()
        #expect(!worker.isStarted)
        #expect(task?.isCancelled == true)
        await task?.value
        interactor.activate()
        #expect(worker.starts == 2 && worker.stops == 1)
        worker.stop()
        worker.stop()
        #expect(worker.stops == 2)
        interactor.deactivate()
        interactor.activate()
        #expect(worker.starts == 2, "a stopped worker no longer follows")
        #expect(worker.task {} == nil)
    }

    @Test("Waiting for activation resumes when the interactor becomes active")
    func waitUntilActive() async {
        actor App {
            let interactor = RecordingInteractor()
            var log: [String] = []

            func waitThenLog() async {
                await interactor.waitUntilActive()
                log.append("active")
            }

            func activate() { interactor.activate() }
            func lines() -> [String] { log }
        }
        let app = App()
        let waiter = Task { await app.waitThenLog() }
        await Task.yield()
        #expect(await app.lines().isEmpty)
        await app.activate()
        await waiter.value
        #expect(await app.lines() == ["active"])
        await app.waitThenLog()
        #expect(await app.lines() == ["active", "active"])
    }
}
