import RIBs

/// The online screen; shows Offer, or Driving as Idle, EnRoute or OnTrip.
final class OnlineRouter: ViewableRouter<OnlineInteractor, OnlineView>, OnlineRouting {
    private let offer: OfferBuilder
    private let driving: DrivingBuilder
    private var activity: DriverActivity?

    init(interactor: OnlineInteractor, view: OnlineView, offer: OfferBuilder, driving: DrivingBuilder) {
        self.offer = offer
        self.driving = driving
        super.init(interactor: interactor, view: view)
        interactor.router = self
    }

    func route(to activity: DriverActivity) {
        // A new offer replaces the one on screen; the same activity otherwise stays.
        guard self.activity != activity || activity == .offer else { return }
        self.activity = activity
        let child: any Routing =
            switch activity {
            case .offer: offer.build(listener: interactor)
            case .idle, .enRoute, .onTrip: driving.build(activity)
            }
        show(child)
    }
}
