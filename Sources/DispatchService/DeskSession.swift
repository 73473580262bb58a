import Wire

/// A connected process (a riders or drivers host, or a tool) as the desk knows it.
struct DeskSession: Codable {
    let id: String
    /// Who it acts as: what it may do and for whom.
    let principal: Principal
    /// The secret its Hellos carry: another Hello for this id is taken only with the same one.
    let token: [UInt8]
    /// The ROUTER identity it is reached at; nil while it has no line (dispatch recovered and the
    /// session has not said Hello again).
    var peer: [UInt8]?
    var lastHeard: Double
    /// Riders and drivers whose messages came through this session.
    var riders: Set<String> = []
    var drivers: Set<String> = []
}
