import RIBs

/// The steps of asking for a ride, in order.
enum RequestStep: Equatable {
    case locations, product, confirmation

    init(_ draft: RideDraft) {
        if draft.pickup == nil || draft.dropoff == nil {
            self = .locations
        } else if draft.product == nil {
            self = .product
        } else {
            self = .confirmation
        }
    }
}

/// How Request changes the tree: one step on screen at a time.
protocol RequestRouting: AnyObject {
    func route(to step: RequestStep)
}

/// Viewless: LocationEditor, then ProductSelection, then Confirmation, following the draft.
final class RequestInteractor: Interactor {
    weak var router: (any RequestRouting)?
    private let ride: RideService

    init(ride: RideService) {
        self.ride = ride
    }

    override func didBecomeActive() {
        bindToActivePeriod(ride.draft.observe { [unowned self] draft in self.router?.route(to: RequestStep(draft)) })
    }
}
