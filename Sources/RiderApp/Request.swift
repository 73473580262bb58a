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
        bindToActivePeriod(ride.draft.observe { [weak self] draft in self?.router?.route(to: RequestStep(draft)) })
    }
}

final class RequestRouter: Router<RequestInteractor>, RequestRouting {
    private let steps: RequestStepBuilders
    private var step: RequestStep?

    init(interactor: RequestInteractor, steps: RequestStepBuilders) {
        self.steps = steps
        super.init(interactor: interactor)
        interactor.router = self
    }

    func route(to step: RequestStep) {
        guard self.step != step else { return }
        self.step = step
        let child: any Routing =
            switch step {
            case .locations: steps.locations.build()
            case .product: steps.product.build()
            case .confirmation: steps.confirmation.build()
            }
        show(child)
    }
}

/// The builders of the Request flow's children.
struct RequestStepBuilders {
    let locations: LocationEditorBuilder
    let product: ProductSelectionBuilder
    let confirmation: ConfirmationBuilder
}

final class RequestBuilder: Builder<any RideDependency> {
    func build() -> RequestRouter {
        RequestRouter(
            interactor: RequestInteractor(ride: dependency.ride),
            steps: RequestStepBuilders(
                locations: LocationEditorBuilder(dependency: dependency),
                product: ProductSelectionBuilder(dependency: dependency),
                confirmation: ConfirmationBuilder(dependency: dependency)))
    }
}
