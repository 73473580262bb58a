import AppRuntime
import City
import RIBs
import Wire

/// What dispatch has given the driver to do — the open offer and the leg being driven — and the
/// driver's duty status. The only thing that changes these streams; interactors call it.
final class WorkService {
    let driverID: String
    let online = ModelStream(false)
    /// The open offer and the leg being driven, boxed: an idle driver's streams then hold a
    /// word each instead of two whole protobuf messages.
    let offer = ModelStream<Boxed<Wire.Offer>?>(nil)
    let leg = ModelStream<Boxed<DriveTo>?>(nil)
    private let link: AppLink
    /// Offers answered, accepted and legs finished, for the app's status.
    private(set) var answered = 0
    private(set) var accepted = 0
    private(set) var legsDone = 0
    /// The highest leg number finished: a repeat of it (sent again after a reconnect) is ignored.
    private var lastFinishedLeg: UInt32 = 0

    /// The open offer, if any.
    var openOffer: Wire.Offer? { offer.value?.value }
    /// The leg being driven, if any.
    var currentLeg: DriveTo? { leg.value?.value }

    init(driverID: String, link: AppLink) {
        self.driverID = driverID
        self.link = link
    }

    func goOnline(at position: GeoPoint) {
        guard !online.value else { return }
        link.request(
            .driverOnline(
                DriverOnline.with {
                    $0.driverID = driverID
                    $0.location = LatLon(position)
                    $0.capacity = 4
                }))
        online.send(true)
    }

    func goOffline(reason: String) {
        guard online.value else { return }
        link.request(
            .driverOffline(
                DriverOffline.with {
                    $0.driverID = driverID
                    $0.reason = reason
                }))
        offer.send(nil)
        leg.send(nil)
        online.send(false)
    }

    /// Answers the open offer.
    func answer(accept: Bool) {
        guard let open = openOffer else { return }
        answered += 1
        if accept {
            accepted += 1
            link.request(
                .acceptOffer(
                    AcceptOffer.with {
                        $0.offerID = open.offerID
                        $0.driverID = driverID
                    }))
        } else {
            link.request(
                .declineOffer(
                    DeclineOffer.with {
                        $0.offerID = open.offerID
                        $0.driverID = driverID
                        $0.reason = "declined by the driver"
                    }))
        }
        offer.send(nil)
    }

    /// Tells dispatch the current leg is done.
    func finishLeg() {
        guard let current = currentLeg else { return }
        legsDone += 1
        lastFinishedLeg = max(lastFinishedLeg, current.leg)
        link.request(
            .legDone(
                LegDone.with {
                    $0.driverID = driverID
                    $0.leg = current.leg
                }))
        leg.send(nil)
    }

    /// An offer past its expiry is gone (dispatch counts it as declined).
    func expireOffer(at time: Double) {
        if let open = openOffer, open.expiry.seconds <= time { offer.send(nil) }
    }

    /// What dispatch sent this driver. A leg replaces an older one; a cancelled leg ends it. The
    /// leg just finished, sent again (dispatch re-syncing after a reconnect or its own restart),
    /// means dispatch did not hear it was done: it is told again.
    func receive(_ body: Envelope.OneOf_Body) {
        guard online.value else { return }
        switch body {
        case .offer(let new) where new.driverID == driverID:
            offer.send(Boxed(new))
        case .driveTo(let drive) where drive.driverID == driverID:
            if drive.cancelled {
                if currentLeg?.leg == drive.leg { leg.send(nil) }
            } else if drive.leg > max(currentLeg?.leg ?? 0, lastFinishedLeg) {
                leg.send(Boxed(drive))
            } else if drive.leg == lastFinishedLeg, currentLeg == nil {
                link.request(
                    .legDone(
                        LegDone.with {
                            $0.driverID = driverID
                            $0.leg = drive.leg
                        }))
            }
        default:
            break
        }
    }
}
