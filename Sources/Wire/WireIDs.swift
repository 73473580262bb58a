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

    /// In virtual time, the session (and socket identity, and message-id prefix) of one life of a
    /// rider or driver process: its name in the first life, `name.life` after a restart — a new
    /// session, so that dispatch neither takes the new life's requests for retries of the old
    /// one's nor keeps the old one's riders waiting.
    public static func session(ofProcess process: String, life: UInt32) -> String {
        life <= 1 ? process : "\(process).\(life)"
    }

    /// The process a virtual-time session belongs to (process names have no dot).
    public static func process(ofSession session: String) -> String {
        String(session.prefix { $0 != "." })
    }

    /// The life of a process that a virtual-time session belongs to.
    public static func life(ofSession session: String) -> UInt32 {
        guard let dot = session.firstIndex(of: ".") else { return 1 }
        return UInt32(session[session.index(after: dot)...]) ?? 1
    }

    /// A surge zone of dispatch's grid.
    public static func zone(_ index: Int) -> String { "zone-\(index)" }
}
