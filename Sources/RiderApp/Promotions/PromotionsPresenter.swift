import RIBs

/// Turns POOL's saving into the banner's line.
final class PromotionsPresenter: Presenter<PromotionsView>, PromotionsPresentable {
    init() {
        super.init(view: PromotionsView(showing: "Promotions"))
    }

    func present(poolSaving percent: Int?) {
        view.render(percent.map { "Promotions · POOL saves \($0) % on this ride" } ?? "Promotions · share a ride and save")
    }
}
