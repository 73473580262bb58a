import RideDispatch

/// A shard's side of matching across its borders (docs/ARCHITECTURE.md, "Sharded dispatch"): the
/// links to every other shard, the asks it has in flight, the reservations it has granted, and
/// what it has done so far. Part of the desk's state (its snapshot); the desk drives it
/// (`DispatchDesk` in DeskBorders.swift).
public struct BorderDesk: Sendable, Equatable, Codable {
    /// How a shard matches across its borders.
    public struct Settings: Sendable, Equatable {
        /// A neighbour's driver is taken only if it reaches the pickup this much sooner (seconds)
        /// than the best driver at home: crossing costs messages and a handover.
        public var margin: Double = 60
        /// A pickup this many zones or fewer from another region asks that region.
        public var reach = 1
        /// How long an ask waits for its answer (simulated seconds).
        public var patience: Double = 10
        /// How long a granted reservation waits for its request.
        public var lifetime: Double = 20
        /// How long a frame waits for its acknowledgement before it is sent again.
        public var resendAfter: Double = 2

        public init() {}
    }

    /// What the shard did across its borders over the run (a restored shard's included).
    public struct Counts: Sendable, Equatable, Codable {
        /// Requests asked for across a border, and of those granted, refused, and unanswered in time.
        public var asked = 0
        public var granted = 0
        public var refused = 0
        public var unanswered = 0
        /// Requests this shard handed to another shard, and took from one.
        public var handedOut = 0
        public var handedIn = 0
        /// Reservations this shard was asked for, and granted.
        public var reserveAsked = 0
        public var reserveGranted = 0
    }

    var outgoing: [Int: ShardLink<BorderMessage>.Sender] = [:]
    var incoming: [Int: ShardLink<BorderMessage>.Receiver] = [:]
    var asks: BorderAsks
    /// Requests asked for whose other neighbours in reach are still to ask if this one refuses,
    /// with the best ETA at home they were asked with.
    var untried: [RequestID: Untried] = [:]
    var reservations: ReservationDesk
    public internal(set) var counts = Counts()

    /// The neighbours still to ask for a request, nearest first, and its best ETA at home.
    struct Untried: Sendable, Equatable, Codable {
        let shards: [Int]
        let home: Double?
    }

    init(shard: Int, settings: Settings) {
        asks = BorderAsks(shard: shard, patience: settings.patience)
        reservations = ReservationDesk(lifetime: settings.lifetime)
    }
}
