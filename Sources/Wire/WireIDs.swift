/// The conventions that tie ids to one another on the wire, kept in one place so that every
/// process derives them the same way: a rider's request, a request's trip, the names of apps,
/// processes and surge zones.
public enum WireIDs {
    /// A rider app asks for one ride in its life, so its request is named after the rider.
    public static func request(ofRider rider: String) -> String { rider }

    /// A trip is named after the request it serves.
    public static func trip(ofRequest request: String) -> String { "trip-" + request }

    /// The `number`th rider of a city (numbered from 1 across its rider processes).
    public static func rider(_ number: Int) -> String { "rider-\(number)" }

    /// The `number`th driver of a city (numbered from 1 across its driver processes).
    public static func driver(_ number: Int) -> String { "driver-\(number)" }

    /// The number in a rider's name ("rider-17" → 17), or nil for a name not of that form.
    public static func number(ofRider name: String) -> Int? { number(in: name, after: "rider-") }

    /// The number in a driver's name ("driver-3" → 3), or nil for a name not of that form.
    public static func number(ofDriver name: String) -> Int? { number(in: name, after: "driver-") }

    private static func number(in name: String, after prefix: String) -> Int? {
        guard name.hasPrefix(prefix) else { return nil }
        let digits = name.dropFirst(prefix.count)
        // "rider-007" is not rider 7: only the spelling `rider(_:)` gives is that rider.
        guard let number = Int(digits), number >= 0, String(number) == digits else { return nil }
        return number
    }

    /// The `index`th rider process of a city (from 0).
    public static func riderProcess(_ index: Int) -> String { "riders-\(index)" }

    /// Dispatch shard `shard` of `shards`: "dispatch" when there is one, "dispatch-K" otherwise.
    public static func dispatchProcess(shard: Int, of shards: Int) -> String {
        shards > 1 ? "dispatch-\(shard)" : "dispatch"
    }

    /// The shard of a dispatch process by its name ("dispatch-2" → 2; "dispatch", the one
    /// dispatch, → 0), or nil for another name.
    public static func shard(ofDispatchProcess name: String) -> Int? {
        name == "dispatch" ? 0 : number(in: name, after: "dispatch-")
    }

    /// How dispatch names its offers: "offer-N", or "offer-K.N" at shard K of a sharded dispatch
    /// (nil: unsharded), so that two shards never name two offers alike.
    public static func offerPrefix(shard: Int?) -> String { shard.map { "offer-\($0)." } ?? "offer-" }

    /// Every dispatch process of a city with `shards` shards, in shard order.
    public static func dispatchProcesses(_ shards: Int) -> [String] {
        (0..<max(1, shards)).map { dispatchProcess(shard: $0, of: shards) }
    }

    /// The `index`th driver process of a city (from 0).
    public static func driverProcess(_ index: Int) -> String { "drivers-\(index)" }

    /// The role of a process by its name in a launch ("riders-0", "drivers-2", "monitor" and "web",
    /// "coordinator", "recorder"; anything else is a tool). Over CURVE, a key is issued to a name,
    /// and this is the role it carries.
    public static func role(ofProcess name: String) -> Role {
        if name.hasPrefix("riders-") { return .riders }
        if name.hasPrefix("drivers-") { return .drivers }
        if shard(ofDispatchProcess: name) != nil { return .dispatch }
        switch name {
        case "monitor", "web": return .monitor
        case "coordinator": return .coordinator
        case "recorder": return .recorder
        default: return .tool
        }
    }

    /// The request a trip serves (`trip(ofRequest:)` backwards), or nil for a name not of that form.
    public static func request(ofTrip trip: String) -> String? {
        trip.hasPrefix("trip-") ? String(trip.dropFirst("trip-".count)) : nil
    }

    /// In virtual time, the session (and socket identity, and message-id prefix) of one life of a
    /// rider or driver process: its name in the first life, `name.life` after a restart — a new
    /// session, so that dispatch neither takes the new life's requests for retries of the old
    /// one's nor keeps the old one's riders waiting.
    public static func session(ofProcess process: String, life: UInt32) -> String {
        life <= 1 ? process : "\(process).\(life)"
    }

    /// The process a virtual-time session belongs to (process names have no dot).
    public static func process(ofSession session: String) -> String {
        // By bytes: dispatch asks this of every message it routes in virtual time, and a walk by
        // Characters (grapheme breaking) held about 1 % of its profile.
        guard let dot = session.utf8.firstIndex(of: UInt8(ascii: ".")) else { return session }
        return String(session[..<dot])
    }

    /// The life of a process that a virtual-time session belongs to.
    public static func life(ofSession session: String) -> UInt32 {
        guard let dot = session.utf8.firstIndex(of: UInt8(ascii: ".")) else { return 1 }
        return UInt32(session[session.utf8.index(after: dot)...]) ?? 1
    }

    /// A surge zone of dispatch's grid.
    public static func zone(_ index: Int) -> String { "zone-\(index)" }
}
