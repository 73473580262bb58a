import RideDispatch

/// The offers sent to drivers and not yet answered, by the name the driver answers with.
/// Names come from a counter that never goes back: a name is never given to two offers, even
/// after the first is declined or withdrawn.
struct OfferBook: Codable {
    struct Open: Equatable, Codable {
        let request: RequestID
        let driver: DriverID
    }

    private var open: [String: Open] = [:]
    private var issued = 0
    /// The names of each request's open offers: closing them finds them here instead of going
    /// through every open offer (kept with `open`, never written: it is `open` by request).
    private var byRequest: [RequestID: [String]] = [:]

    private enum CodingKeys: CodingKey { case open, issued }

    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        open = try container.decode([String: Open].self, forKey: .open)
        issued = try container.decode(Int.self, forKey: .issued)
        for (name, offer) in open { byRequest[offer.request, default: []].append(name) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(open, forKey: .open)
        try container.encode(issued, forKey: .issued)
    }

    /// How many offers are open.
    var count: Int { open.count }

    subscript(name: String) -> Open? { open[name] }

    /// Records an offer of `request` to `driver` and returns its new name: `prefix` and a number
    /// (sharded, the prefix names the shard, so that no two shards' offers share a name).
    mutating func make(_ request: RequestID, to driver: DriverID, prefix: String = "offer-") -> String {
        issued += 1
        let name = "\(prefix)\(issued)"
        open[name] = Open(request: request, driver: driver)
        byRequest[request, default: []].append(name)
        checkInvariants()
        return name
    }

    /// The offer of `request` to `driver` was answered or expired.
    mutating func close(_ request: RequestID, driver: DriverID) {
        guard var names = byRequest[request] else { return }
        names.removeAll { name in
            guard open[name]?.driver == driver else { return false }
            open[name] = nil
            return true
        }
        byRequest[request] = names.isEmpty ? nil : names
        checkInvariants()
    }

    /// Every offer of `request` is void: it was matched or ended.
    mutating func closeAll(of request: RequestID) {
        guard let names = byRequest.removeValue(forKey: request) else { return }
        for name in names { open[name] = nil }
        checkInvariants()
    }

    /// The index holds exactly the open offers, each under its own request (debug builds).
    private func checkInvariants() {
        #if DEBUG
            precondition(byRequest.values.reduce(0) { $0 + $1.count } == open.count, "OfferBook: index and offers differ")
            for (request, names) in byRequest {
                precondition(!names.isEmpty, "OfferBook: an empty entry for \(request)")
                for name in names { precondition(open[name]?.request == request, "OfferBook: \(name) filed under \(request)") }
            }
        #endif
    }
}
