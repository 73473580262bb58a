// The frame's many small records go on the wire as arrays, places in whole microdegrees and
// times in whole milliseconds: a busy city's frame has thousands of them, ten to a hundred
// times a second, and integers in arrays encode several times faster than keyed doubles.

extension LiveFrame.DriverDot {
    /// `[id, lat µ°, lon µ°, state]`.
    public func encode(to encoder: any Encoder) throws {
        var row = encoder.unkeyedContainer()
        try row.encode(id)
        try row.encode(Microdegrees.of(lat))
        try row.encode(Microdegrees.of(lon))
        try row.encode(state)
    }

    public init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        self.init(
            id: try row.decode(String.self), lat: Microdegrees.degrees(try row.decode(Int64.self)),
            lon: Microdegrees.degrees(try row.decode(Int64.self)), state: try row.decode(Int.self))
    }
}

extension LiveFrame.RequestDot {
    /// `[id, lat µ°, lon µ°]`.
    public func encode(to encoder: any Encoder) throws {
        var row = encoder.unkeyedContainer()
        try row.encode(id)
        try row.encode(Microdegrees.of(lat))
        try row.encode(Microdegrees.of(lon))
    }

    public init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        self.init(
            id: try row.decode(String.self), lat: Microdegrees.degrees(try row.decode(Int64.self)),
            lon: Microdegrees.degrees(try row.decode(Int64.self)))
    }
}

extension LiveFrame.Leg {
    /// `[id, depart ms, arrive ms, [node, …]]`.
    public func encode(to encoder: any Encoder) throws {
        var row = encoder.unkeyedContainer()
        try row.encode(id)
        try row.encode(Int64((depart * 1_000).rounded()))
        try row.encode(Int64((arrive * 1_000).rounded()))
        try row.encode(nodes)
    }

    public init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        let id = try row.decode(String.self)
        let depart = Double(try row.decode(Int64.self)) / 1_000
        let arrive = Double(try row.decode(Int64.self)) / 1_000
        self.init(id: id, nodes: try row.decode([UInt32].self), depart: depart, arrive: arrive)
    }
}

/// Degrees as whole millionths (about 0.1 m), and back.
enum Microdegrees {
    static func of(_ degrees: Double) -> Int64 { Int64((degrees * 1_000_000).rounded()) }
    static func degrees(_ microdegrees: Int64) -> Double { Double(microdegrees) / 1_000_000 }
}
