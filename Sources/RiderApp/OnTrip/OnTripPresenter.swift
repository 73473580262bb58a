import RIBs

/// What the user asked for on the trip screen.
protocol OnTripPresentableListener: AnyObject {
    func cancel(reason: String)
}

/// Turns the ride's state into the trip screen; passes a cancel on.
final class OnTripPresenter: Presenter<OnTripView>, OnTripPresentable {
    weak var listener: (any OnTripPresentableListener)?

    init(status: RideStatus) {
        super.init(view: OnTripView(showing: OnTripScreen(status: status)))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func present(_ status: RideStatus) {
        view.render(OnTripScreen(status: status))
    }

    private func handle(_ action: OnTripAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .cancel(let reason): listener.cancel(reason: reason)
        }
    }
}
