/// A request's record in a flat form: its numbers in two arrays (whole numbers, then times and
/// amounts), the reason a ride ended when it has one, and the drivers who declined it. A run's
/// records are most of a snapshot of dispatch, and field by field through `Codable`'s keyed
/// containers they took 40 % of its encoding time (docs/PERFORMANCE.md); as arrays of numbers an
/// encoder that writes them whole copies them at once.
extension RequestRecord {
    /// What `ints[6]` says the phase is (finished ones by their outcome).
    private enum PhaseTag: Int {
        case scheduled, waiting, offered, assigned, aboard, completed, cancelled, rejected, frozen, handedOut
    }

    /// `ints[8]`: which optional numbers are there.
    private enum Present {
        static let pickupAt = 1, pickupETA = 2, pickedUpAt = 4
    }

    private static let intCount = 13, doubleCount = 8

    func encode(to encoder: any Encoder) throws {
        var tag = PhaseTag.waiting
        var value = 0
        var fare = Fare(riderPaysCents: 0, driverEarnsCents: 0, platformCents: 0)
        var party: Party = .rider
        var reason: String?
        switch phase {
        case .scheduled: tag = .scheduled
        case .waiting: tag = .waiting
        case .offered(let driver): (tag, value) = (.offered, driver.rawValue)
        case .assigned(let driver): (tag, value) = (.assigned, driver.rawValue)
        case .aboard(let driver): (tag, value) = (.aboard, driver.rawValue)
        case .finished(.completed(let paid)): (tag, fare) = (.completed, paid)
        case .finished(.cancelled(let by, let why)): (tag, party, reason) = (.cancelled, by, why)
        case .finished(.rejected(let why)): (tag, reason) = (.rejected, why)
        case .frozen: tag = .frozen
        case .handedOut(let shard): (tag, value) = (.handedOut, shard)
        }
        var present = 0
        if request.pickupAt != nil { present |= Present.pickupAt }
        if quote.pickupETA != nil { present |= Present.pickupETA }
        if pickedUpAt != nil { present |= Present.pickedUpAt }
        let ints = [
            request.id.rawValue, request.rider, request.origin, request.destination,
            request.product == .pool ? 1 : 0, quote.priceCents, tag.rawValue, value, present,
            fare.riderPaysCents, fare.driverEarnsCents, fare.platformCents, Party.allCases.firstIndex(of: party)!,
        ]
        let doubles = [
            request.pickupAt ?? 0, quote.surge, quote.pickupETA ?? 0, quote.tripSeconds, quote.tripMetres, requestedAt,
            waitingSince, pickedUpAt ?? 0,
        ]
        var container = encoder.unkeyedContainer()
        try container.encode(ints)
        try container.encode(doubles)
        if let reason { try container.encode(reason) }
        try container.encode(declinedBy.map(\.rawValue).sorted())
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let ints = try container.decode([Int].self)
        let doubles = try container.decode([Double].self)
        guard ints.count == Self.intCount, doubles.count == Self.doubleCount else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription:
                    "a request record has \(Self.intCount) whole numbers and \(Self.doubleCount) others, not \(ints.count) and \(doubles.count)"
            )
        }
        guard let tag = PhaseTag(rawValue: ints[6]), ints[4] == 0 || ints[4] == 1,
            Party.allCases.indices.contains(ints[12])
        else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a request record's product \(ints[4]), phase \(ints[6]) or party \(ints[12])")
        }
        let present = ints[8]
        let driver = DriverID(ints[7])
        switch tag {
        case .scheduled: phase = .scheduled
        case .waiting: phase = .waiting
        case .offered: phase = .offered(driver)
        case .assigned: phase = .assigned(driver)
        case .aboard: phase = .aboard(driver)
        case .completed:
            phase = .finished(.completed(Fare(riderPaysCents: ints[9], driverEarnsCents: ints[10], platformCents: ints[11])))
        case .cancelled: phase = .finished(.cancelled(by: Party.allCases[ints[12]], reason: try container.decode(String.self)))
        case .rejected: phase = .finished(.rejected(reason: try container.decode(String.self)))
        case .frozen: phase = .frozen
        case .handedOut: phase = .handedOut(shard: ints[7])
        }
        request = RideRequest(
            id: RequestID(ints[0]), rider: ints[1], origin: ints[2], destination: ints[3],
            product: ints[4] == 1 ? .pool : .standard, pickupAt: present & Present.pickupAt != 0 ? doubles[0] : nil)
        quote = Quote(
            priceCents: ints[5], surge: doubles[1], pickupETA: present & Present.pickupETA != 0 ? doubles[2] : nil,
            tripSeconds: doubles[3], tripMetres: doubles[4])
        requestedAt = doubles[5]
        waitingSince = doubles[6]
        pickedUpAt = present & Present.pickedUpAt != 0 ? doubles[7] : nil
        declinedBy = Set(try container.decode([Int].self).map(DriverID.init))
    }
}
