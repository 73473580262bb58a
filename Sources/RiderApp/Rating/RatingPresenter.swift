import RIBs

/// What the user asked for on the rating screen.
protocol RatingPresentableListener: AnyObject {
    func rate(stars: UInt32)
}

/// Shows the stars to give, then the thanks; passes the stars on.
final class RatingPresenter: Presenter<RatingView>, RatingPresentable {
    weak var listener: (any RatingPresentableListener)?

    init() {
        super.init(view: RatingView(showing: "Rate your trip · [1-5 stars]"))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func presentThanks(stars: UInt32) {
        view.render("Thanks for rating \(stars) stars")
    }

    private func handle(_ action: RatingAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .rate(let stars): listener.rate(stars: stars)
        }
    }
}
