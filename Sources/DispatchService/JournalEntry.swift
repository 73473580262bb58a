/// One record of dispatch's journal: an input the dispatch process acted on, with the simulated
/// time it acted at. Dispatch is deterministic given its inputs, so replaying the entries in order
/// rebuilds its state exactly — sessions, requests, drivers, offers, remembered replies and the
/// sequence numbers of everything it sent.
public enum JournalEntry: Sendable, Equatable {
    /// The journal's first entry: when the run's simulated clock started (wall clock, Unix
    /// milliseconds) and its speed, so that a restarted dispatch keeps the same clock.
    case started(wallOriginMs: Int64, speed: Double)
    /// A well-formed message from the sessions' ROUTER, as received (identity frame first), with
    /// the name its connection's CURVE key was issued to (empty without CURVE).
    case received(time: Double, frames: [[UInt8]], user: String = "")
    /// A frame that was not a message: only what replay needs (the kind of fault, counted, and
    /// who sent it), never its bytes — a flood of garbage must not fill the disk.
    case malformed(time: Double, kind: String, peer: [UInt8])
    /// The engine's timers advanced (and silent sessions were expired) to `time`.
    case tick(time: Double)
    /// Dispatch came back from its journal at `time`: every session gets a fresh timeout.
    case recovered(time: Double)

    /// The simulated time dispatch acted at (none for the clock's start).
    var time: Double? {
        switch self {
        case .started: nil
        case .received(let time, _, _), .malformed(let time, _, _), .tick(let time), .recovered(let time): time
        }
    }

    enum Kind: UInt8 {
        case started = 0, received = 1, tick = 2, recovered = 3, malformed = 4
    }

    /// The record's bytes after its length: kind, time (IEEE 754, little-endian), payload.
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        switch self {
        case .started(let origin, let speed):
            bytes.append(Kind.started.rawValue)
            append(UInt64(0))
            append(origin)
            append(speed.bitPattern)
        case .received(let time, let frames, let user):
            bytes.append(Kind.received.rawValue)
            append(time.bitPattern)
            append(UInt16(frames.count))
            for frame in frames {
                append(UInt32(frame.count))
                bytes.append(contentsOf: frame)
            }
            // Journals written before CURVE end here; an unauthenticated message still does.
            if !user.isEmpty {
                append(UInt16(clamping: user.utf8.count))
                bytes.append(contentsOf: user.utf8.prefix(Int(UInt16.max)))
            }
        case .malformed(let time, let kind, let peer):
            bytes.append(Kind.malformed.rawValue)
            append(time.bitPattern)
            append(UInt16(clamping: kind.utf8.count))
            bytes.append(contentsOf: kind.utf8.prefix(Int(UInt16.max)))
            append(UInt16(clamping: peer.count))
            bytes.append(contentsOf: peer.prefix(Int(UInt16.max)))
        case .tick(let time):
            bytes.append(Kind.tick.rawValue)
            append(time.bitPattern)
        case .recovered(let time):
            bytes.append(Kind.recovered.rawValue)
            append(time.bitPattern)
        }
        return bytes
    }

    /// Decodes a record's bytes (after its length), or says what is wrong with them.
    init(decoding bytes: ArraySlice<UInt8>) throws(JournalError.Reason) {
        var reader = ByteReader(bytes: bytes)
        guard let raw = reader.byte(), let kind = Kind(rawValue: raw) else { throw .badKind(bytes.first ?? 0) }
        guard let timeBits = reader.integer(UInt64.self) else { throw .short("the time") }
        let time = Double(bitPattern: timeBits)
        switch kind {
        case .started:
            guard let origin = reader.integer(Int64.self), let speed = reader.integer(UInt64.self) else {
                throw .short("the clock")
            }
            self = .started(wallOriginMs: origin, speed: Double(bitPattern: speed))
        case .received:
            guard let count = reader.integer(UInt16.self) else { throw .short("the frame count") }
            var frames: [[UInt8]] = []
            for index in 0..<Int(count) {
                guard let length = reader.integer(UInt32.self), let frame = reader.bytes(Int(length)) else {
                    throw .short("frame \(index)")
                }
                frames.append(frame)
            }
            var user = ""
            if !reader.atEnd {
                guard let length = reader.integer(UInt16.self), let name = reader.bytes(Int(length)) else {
                    throw .short("the user")
                }
                user = String(decoding: name, as: UTF8.self)
            }
            self = .received(time: time, frames: frames, user: user)
        case .malformed:
            guard let kindLength = reader.integer(UInt16.self), let kind = reader.bytes(Int(kindLength)),
                let peerLength = reader.integer(UInt16.self), let peer = reader.bytes(Int(peerLength))
            else { throw .short("the malformed frame's kind and sender") }
            self = .malformed(time: time, kind: String(decoding: kind, as: UTF8.self), peer: peer)
        case .tick:
            self = .tick(time: time)
        case .recovered:
            self = .recovered(time: time)
        }
        guard reader.atEnd else { throw .trailing(reader.remaining) }
    }
}

/// Reads little-endian values from a record, returning `nil` when the bytes run out.
private struct ByteReader {
    let bytes: ArraySlice<UInt8>
    var offset: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    var atEnd: Bool { offset == bytes.endIndex }
    var remaining: Int { bytes.endIndex - offset }

    mutating func byte() -> UInt8? {
        guard offset < bytes.endIndex else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        var value: T = 0
        for index in 0..<size { value |= T(bytes[offset + index]) << (8 * index) }
        offset += size
        return value
    }

    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard remaining >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}
