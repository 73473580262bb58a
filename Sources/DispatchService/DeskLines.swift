import Wire

/// A rider as the desk knows it: the session its messages come through, and the last trip update
/// sent to it (sent again when its session comes back on a new socket).
struct RiderLine: Codable {
    var session: String?
    var lastUpdate: TripUpdate?
}

/// A driver as the desk knows it: the session its messages come through, the last leg sent to it
/// (sent again after a reconnect, or when it stays open well past its arrival), and when that leg
/// was last sent again.
struct DriverLine: Codable {
    var session: String?
    var lastLeg: DriveTo?
    var legResent: Double?
}

extension RiderLine {
    enum CodingKeys: CodingKey { case session, lastUpdate }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(lastUpdate.map(CodedMessage.init), forKey: .lastUpdate)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decode(String?.self, forKey: .session)
        lastUpdate = try container.decode(CodedMessage<TripUpdate>?.self, forKey: .lastUpdate)?.message
    }
}

extension DriverLine {
    enum CodingKeys: CodingKey { case session, lastLeg, legResent }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(session, forKey: .session)
        try container.encode(lastLeg.map(CodedMessage.init), forKey: .lastLeg)
        try container.encode(legResent, forKey: .legResent)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        session = try container.decode(String?.self, forKey: .session)
        lastLeg = try container.decode(CodedMessage<DriveTo>?.self, forKey: .lastLeg)?.message
        legResent = try container.decode(Double?.self, forKey: .legResent)
    }
}
