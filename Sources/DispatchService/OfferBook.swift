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

    /// How many offers are open.
    var count: Int { open.count }

    subscript(name: String) -> Open? { open[name] }

    /// Records an offer of `request` to `driver` and returns its new name: `prefix` and a number
    /// (sharded, the prefix names the shard, so that no two shards' offers share a name).
    mutating func make(_ request: RequestID, to driver: DriverID, prefix: String = "offer-") -> String {
        issued += 1
        let name = "\(prefix)\(issued)"
        open[name] = Open(request: request, driver: driver)
        return name
    }

    /// The offer of `request` to `driver` was answered or expired.
    mutating func close(_ request: RequestID, driver: DriverID) {
        open = open.filter { $0.value != Open(request: request, driver: driver) }
    }

    /// Every offer of `request` is void: it was matched or ended.
    mutating func closeAll(of request: RequestID) {
        open = open.filter { $0.value.request != request }
    }
}
