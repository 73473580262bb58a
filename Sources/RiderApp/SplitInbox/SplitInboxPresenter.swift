import RIBs

/// What the user asked for in the split inbox.
protocol SplitInboxPresentableListener: AnyObject {
    func answer(_ id: String, accept: Bool)
}

/// Shows the open invitations; passes answers on.
final class SplitInboxPresenter: Presenter<SplitInboxView>, SplitInboxPresentable {
    weak var listener: (any SplitInboxPresentableListener)?

    init() {
        super.init(view: SplitInboxView(showing: SplitInboxScreen(open: [])))
        view.onAction = { [weak self] action in self?.handle(action) }
    }

    func present(_ invitations: [OpenInvitation]) {
        view.render(SplitInboxScreen(open: invitations))
    }

    private func handle(_ action: SplitInboxAction) {
        guard let listener else { return view.drop(action) }
        switch action {
        case .answer(let id, let accept): listener.answer(id, accept: accept)
        }
    }
}
