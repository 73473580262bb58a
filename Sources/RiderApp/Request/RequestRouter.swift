import RIBs

/// Shows the step the draft has reached.
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
