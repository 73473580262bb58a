import AppRuntime
import RIBs
import Wire

protocol OnlineDependency: Dependency {
    var link: AppLink { get }
    var work: WorkService { get }
    var vehicle: VehicleService { get }
}

protocol OnlineListener: AnyObject {
    func goOffline()
}

/// The online screen's frame: status and the button to go offline.
final class OnlineView: View<OnlineView.Screen, OnlineView.Action> {
    struct Screen: Equatable, CustomStringConvertible {
        var status: String
        var description: String { "Online · \(status) · [Go offline]" }
    }

    enum Action { case goOffline }
}

/// What the driver is doing while online, and so which child is on screen.
enum DriverActivity: Equatable {
    case idle, offer, enRoute, onTrip

    init(offer: Wire.Offer?, leg: DriveTo?) {
        if offer != nil {
            self = .offer
        } else {
            switch leg?.stop {
            case .pickup?: self = .enRoute
            case .dropoff?: self = .onTrip
            default: self = .idle
            }
        }
    }
}

protocol OnlineRouting: AnyObject {
    func route(to activity: DriverActivity)
}

/// Follows the offer and the leg dispatch gave, and routes among Idle, Offer, EnRoute and OnTrip;
/// keeps the car moving (the leg follower) while online.
final class OnlineInteractor: ViewInteractor<OnlineView.Screen, OnlineView.Action>, OfferListener {
    weak var router: (any OnlineRouting)?
    weak var listener: (any OnlineListener)?
    private let work: WorkService
    private let follower: LegFollower

    init(view: OnlineView, work: WorkService, follower: LegFollower) {
        self.work = work
        self.follower = follower
        super.init(presenter: view)
    }

    override func didBecomeActive() {
        super.didBecomeActive()
        follower.start(self)
        bindToActivePeriod(work.offer.observe { [weak self] _ in self?.update() })
        bindToActivePeriod(work.leg.observe { [weak self] _ in self?.update() })
    }

    override func willResignActive() {
        super.willResignActive()
        follower.stop()
    }

    override func handle(_ action: OnlineView.Action) {
        switch action {
        case .goOffline: listener?.goOffline()
        }
    }

    func answer(accept: Bool) {
        work.answer(accept: accept)
    }

    private func update() {
        let activity = DriverActivity(offer: work.offer.value, leg: work.leg.value)
        presenter.render(.init(status: "\(activity)"))
        router?.route(to: activity)
    }
}

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

final class OnlineBuilder: Builder<any OnlineDependency> {
    func build(listener: any OnlineListener) -> OnlineRouter {
        let view = OnlineView(showing: .init(status: "idle"))
        let follower = LegFollower(link: dependency.link, work: dependency.work, vehicle: dependency.vehicle)
        let interactor = OnlineInteractor(view: view, work: dependency.work, follower: follower)
        interactor.listener = listener
        return OnlineRouter(
            interactor: interactor, view: view, offer: OfferBuilder(dependency: dependency),
            driving: DrivingBuilder(dependency: dependency))
    }
}
