import RIBs

/// The trip screen; attaches Rating once.
final class OnTripRouter: ViewableRouter<OnTripInteractor, OnTripView>, OnTripRouting {
    private let rating: RatingBuilder
    private var ratingRouter: RatingRouter?

    init(interactor: OnTripInteractor, view: OnTripView, rating: RatingBuilder) {
        self.rating = rating
        super.init(interactor: interactor, view: view)
        interactor.router = self
    }

    func routeToRating() {
        guard ratingRouter == nil else { return }
        let child = rating.build()
        ratingRouter = child
        attachChild(child)
    }
}
