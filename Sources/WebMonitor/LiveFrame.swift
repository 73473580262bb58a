/// What the web page is sent as soon as something changed (at most one per 5 ms by default): what changed since the page's last frame, or everything in a full frame.
public struct LiveFrame: Codable, Sendable, Equatable {
    /// The version this frame brings the page to; the page's next frame starts from it.
    public var version: UInt64
    /// Everything (a page that just connected, or fell too far behind), or only what changed.
    public var full: Bool
    public var simSeconds: Double
    /// Drivers that changed: id, where they were at their last state change (0 when not known
    /// yet), state as `DriverState`'s number (1 offline, 2 idle, 3 offered, 4 en route, 5 on
    /// trip).
    public var drivers: [DriverDot]
    /// Legs given since the last frame (every leg being driven, in a full frame): the page moves
    /// each car along its leg until the leg ends.
    public var legs: [Leg]
    /// Drivers whose leg ended since the last frame (arrived, stopped, or the driver went offline).
    public var legsEnded: [String]
    /// Requests that began waiting for a car since the last frame (all those waiting, in a full
    /// frame): `[id, lat µ°, lon µ°]`.
    public var waiting: [RequestDot]
    /// Requests that stopped waiting since the last frame (matched, cancelled, rejected).
    public var waitingEnded: [String]
    /// Pickups and drop-offs since the last frame.
    public var flashes: [Flash]
    /// Surge by zone, where it is above 1.
    public var surge: [String: Double]
    public var kpis: Totals
    /// Simulated minutes that changed since the last frame (all of them in a full frame).
    public var minutes: [MinuteRow]
    public var processes: [ProcessRow]
    /// The coordinator's notices (processes ready, restarted, killed) since the last frame.
    public var notices: [NoticeRow]
    /// At the end of the run: the summary, as `summary.json` has it.
    public var summary: String?

    public struct DriverDot: Codable, Sendable, Equatable {
        public var id: String
        public var lat: Double
        public var lon: Double
        public var state: Int
    }

    /// A leg as dispatch gave it to driver `id`: road-graph nodes (indices into the map's
    /// `nodes`), and the simulated seconds at which the car leaves the first and reaches the last.
    public struct Leg: Codable, Sendable, Equatable {
        public var id: String
        public var nodes: [UInt32]
        public var depart: Double
        public var arrive: Double
    }

    public struct RequestDot: Codable, Sendable, Equatable {
        public var id: String
        public var lat: Double
        public var lon: Double
    }

    public struct Flash: Codable, Sendable, Equatable {
        /// "pickup" or "dropoff".
        public var kind: String
        public var lat: Double
        public var lon: Double
    }

    public struct Totals: Codable, Sendable, Equatable {
        public var requests = 0
        public var matched = 0
        public var completed = 0
        public var cancelled = 0
        public var rejected = 0
        public var open = 0
        public var pickupWaitP50 = 0.0
        public var pickupWaitP95 = 0.0
        /// Online drivers busy (offered, en route or on a trip), as a share of those online.
        public var utilisation = 0.0
        public var maxSurge = 1.0
        public var missedEvents: UInt64 = 0
    }

    /// One simulated minute of the run.
    public struct MinuteRow: Codable, Sendable, Equatable {
        public var minute: Int64
        public var requests = 0
        public var matched = 0
        public var completed = 0
        public var cancelled = 0
        public var pickupWaitP50 = 0.0
        public var pickupWaitP95 = 0.0
        public var utilisation = 0.0
        public var maxSurge = 1.0
    }

    public struct ProcessRow: Codable, Sendable, Equatable {
        public var name: String
        public var lives: Int
        public var lagSeconds: Double
        public var cpuSeconds: Double
        public var residentMB: Double
        public var messagesIn: UInt64
        public var messagesOut: UInt64
    }

    public struct NoticeRow: Codable, Sendable, Equatable {
        public var simSeconds: Double
        public var text: String
    }
}
