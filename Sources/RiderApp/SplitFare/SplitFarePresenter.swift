import RIBs

/// What the user asked for on the Split Fare screen.
protocol SplitFarePresentableListener: AnyObject {
    func invite(_ ids: [String])
}

/// Shows the contacts to invite, who was invited, then the rider's share; passes picks on.
final class SplitFarePresenter: Presenter<SplitFareView>, SplitFarePresentable {
    weak var listener: (any SplitFarePresentableListener)?

    init() {
        super.init(view: SplitFareView(showing: .choosing([])))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func present(_ screen: SplitFareScreen) {
        view.render(screen)
    }

    private func handle(_ action: SplitFareAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .invite(let ids): listener.invite(ids)
        }
    }
}
