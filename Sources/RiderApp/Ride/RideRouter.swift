import RIBs

/// Shows Request or OnTrip.
final class RideRouter: Router<RideInteractor>, RideRouting {
    private let request: RequestBuilder
    private let onTrip: OnTripBuilder

    init(interactor: RideInteractor, request: RequestBuilder, onTrip: OnTripBuilder) {
        self.request = request
        self.onTrip = onTrip
        super.init(interactor: interactor)
        interactor.router = self
    }

    func routeToRequest() {
        show(RequestRouter.self) { request.build() }
    }

    func routeToOnTrip() {
        show(OnTripRouter.self) { onTrip.build() }
    }
}
