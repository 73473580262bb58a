import RIBs

protocol OfflineDependency: Dependency {
    var profile: DriverProfile { get }
}

protocol OfflineListener: AnyObject {
    func goOnline()
}

/// The offline screen: when the shift starts, and the button to go online.
final class OfflineView: View<OfflineView.Screen, OfflineView.Action> {
    struct Screen: Equatable, CustomStringConvertible {
        var shiftStart: Double
        var description: String { "Offline · shift starts at \(Int(shiftStart)) s · [Go online]" }
    }

    enum Action { case goOnline }
}

final class OfflineInteractor: ViewInteractor<OfflineView.Screen, OfflineView.Action> {
    weak var listener: (any OfflineListener)?

    override func handle(_ action: OfflineView.Action) {
        switch action {
        case .goOnline: listener?.goOnline()
        }
    }
}

final class OfflineRouter: ViewableRouter<OfflineInteractor, OfflineView> {}

final class OfflineBuilder: Builder<any OfflineDependency> {
    func build(listener: any OfflineListener) -> OfflineRouter {
        let view = OfflineView(showing: .init(shiftStart: dependency.profile.shiftStart))
        let interactor = OfflineInteractor(presenter: view)
        interactor.listener = listener
        return OfflineRouter(interactor: interactor, view: view)
    }
}
