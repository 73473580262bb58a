import RIBs

/// What the user asked for on the Share ETA screen.
protocol ShareETAPresentableListener: AnyObject {
    func share(with ids: [String])
    func stop()
}

/// Shows the contacts to pick, then whom the ETA is shared with; passes picks on.
final class ShareETAPresenter: Presenter<ShareETAView>, ShareETAPresentable {
    weak var listener: (any ShareETAPresentableListener)?

    init() {
        super.init(view: ShareETAView(showing: .choosing([])))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func present(_ screen: ShareETAScreen) {
        view.render(screen)
    }

    private func handle(_ action: ShareETAAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .share(let ids): listener.share(with: ids)
        case .stop: listener.stop()
        }
    }
}
