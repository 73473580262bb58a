import RideDispatch
import SimulatedTime
import Wire

/// What one dispatch shard says to another about matching across their border
/// (docs/ARCHITECTURE.md, "Sharded dispatch"), carried by a ``ShardLink`` (which makes every
/// message arrive once, in order) and on the wire as a `ShardFrame`'s message. Road nodes are of
/// the city every shard loads alike; requests and drivers go by their wire names.
public enum BorderMessage: Sendable, Equatable, Codable {
    /// Reserve your idle driver nearest to `pickup` for request `request`, if it gets there at
    /// least your margin sooner than my best (`homeETA` seconds; nil: I have no idle driver).
    case reserve(reservation: String, request: String, pickup: Int, homeETA: Double?)
    /// The owner's answer to `reservation`: granted (the driver is held until `expires`) or not.
    case answer(reservation: String, granted: Bool, driver: String, eta: Double, expires: Double, reason: String)
    /// The asker does not need `reservation` any more.
    case release(reservation: String)
    /// The request moves to the owner of the reserved driver.
    case handOver(BorderHandoverRecord)

    /// A request as it moves from one shard to another: all the new owner needs to serve it.
    public struct BorderHandoverRecord: Sendable, Equatable, Codable {
        public let reservation: String
        public let request: String
        public let rider: String
        /// The process hosting the rider's app (its session there gets the rider's updates).
        public let riderProcess: String
        public let origin: Int
        public let destination: Int
        public let product: RideDispatch.RideRequest.Product
        public let pickupAt: Double?
        public let provenance: RequestProvenance
    }

    /// The message as a frame's payload.
    var wire: ShardFrame.OneOf_Message {
        switch self {
        case .reserve(let reservation, let request, let pickup, let homeETA):
            .reserve(
                BorderReserve.with {
                    $0.reservationID = reservation
                    $0.requestID = request
                    $0.pickupNode = UInt32(pickup)
                    if let homeETA {
                        $0.hasHomeEta_p = true
                        $0.homeEtaS = homeETA
                    }
                })
        case .answer(let reservation, let granted, let driver, let eta, let expires, let reason):
            .answer(
                BorderAnswer.with {
                    $0.reservationID = reservation
                    $0.granted = granted
                    $0.driverID = driver
                    $0.etaS = eta
                    $0.expiresAtMs = SimTime(seconds: expires).wireMilliseconds
                    $0.reason = reason
                })
        case .release(let reservation):
            .release(BorderRelease.with { $0.reservationID = reservation })
        case .handOver(let record):
            .handover(
                BorderHandover.with {
                    $0.reservationID = record.reservation
                    $0.requestID = record.request
                    $0.riderID = record.rider
                    $0.riderProcess = record.riderProcess
                    $0.originNode = UInt32(record.origin)
                    $0.destinationNode = UInt32(record.destination)
                    $0.product = WireMapping.product(record.product)
                    if let pickupAt = record.pickupAt {
                        $0.hasScheduledPickup_p = true
                        $0.scheduledPickupMs = SimTime(seconds: pickupAt).wireMilliseconds
                    }
                    $0.requestedAtMs = SimTime(seconds: record.provenance.requestedAt).wireMilliseconds
                    $0.priceCents = Int64(record.provenance.priceCents)
                    $0.surgeMultiplier = record.provenance.surge
                })
        }
    }

    /// The message a frame carries, its road nodes checked against a city of `nodes` nodes.
    init(_ wire: ShardFrame.OneOf_Message, nodes: Int) throws(DeskFailure) {
        func node(_ value: UInt32, _ field: String) throws(DeskFailure) -> Int {
            guard Int(value) < nodes else {
                throw DeskFailure(code: .malformed, reason: "\(field) \(value) is no road node of this city (\(nodes) nodes)")
            }
            return Int(value)
        }
        switch wire {
        case .reserve(let reserve):
            guard !reserve.reservationID.isEmpty, !reserve.requestID.isEmpty else {
                throw DeskFailure(code: .malformed, reason: "BorderReserve needs reservation_id and request_id")
            }
            self = .reserve(
                reservation: reserve.reservationID, request: reserve.requestID,
                pickup: try node(reserve.pickupNode, "pickup_node"),
                homeETA: reserve.hasHomeEta_p ? reserve.homeEtaS : nil)
        case .answer(let answer):
            guard !answer.reservationID.isEmpty else {
                throw DeskFailure(code: .malformed, reason: "BorderAnswer needs reservation_id")
            }
            self = .answer(
                reservation: answer.reservationID, granted: answer.granted, driver: answer.driverID, eta: answer.etaS,
                expires: SimTime(wireMilliseconds: answer.expiresAtMs).seconds, reason: answer.reason)
        case .release(let release):
            guard !release.reservationID.isEmpty else {
                throw DeskFailure(code: .malformed, reason: "BorderRelease needs reservation_id")
            }
            self = .release(reservation: release.reservationID)
        case .handover(let handover):
            guard !handover.reservationID.isEmpty, !handover.requestID.isEmpty, !handover.riderID.isEmpty else {
                throw DeskFailure(code: .malformed, reason: "BorderHandover needs reservation_id, request_id and rider_id")
            }
            guard handover.priceCents >= 0 else {
                throw DeskFailure(code: .malformed, reason: "BorderHandover's price_cents \(handover.priceCents) is negative")
            }
            self = .handOver(
                BorderHandoverRecord(
                    reservation: handover.reservationID, request: handover.requestID, rider: handover.riderID,
                    riderProcess: handover.riderProcess, origin: try node(handover.originNode, "origin_node"),
                    destination: try node(handover.destinationNode, "destination_node"),
                    product: WireMapping.product(handover.product),
                    pickupAt: handover.hasScheduledPickup_p ? SimTime(wireMilliseconds: handover.scheduledPickupMs).seconds : nil,
                    provenance: RequestProvenance(
                        requestedAt: SimTime(wireMilliseconds: handover.requestedAtMs).seconds,
                        priceCents: Int(clamping: handover.priceCents),
                        surge: handover.surgeMultiplier.isFinite && handover.surgeMultiplier >= 1 ? handover.surgeMultiplier : 1))
            )
        }
    }
}
