import SimulatedTime
import Wire

/// Dispatch's events from the window link, put in the recording's fixed order: taken as they
/// came (encoded, so the keeper on the I/O thread only looks at their topic), decoded here, and
/// given out by simulated time, sender and sequence once a window opens after them.
struct WindowEventOrder: Sendable {
    private var held: [Envelope] = []
    /// Envelopes that did not decode, or were not dispatch events.
    private(set) var refused = 0

    /// Takes `encoded` envelopes, in the order they came.
    mutating func add(_ encoded: [[UInt8]]) {
        held.reserveCapacity(held.count + encoded.count)
        for bytes in encoded {
            guard let envelope = try? WireCodec.decode(bytes), case .dispatchEvent? = envelope.body else {
                refused += 1
                continue
            }
            held.append(envelope)
        }
    }

    /// The events published before `time` (all of them, with `nil`), in the fixed order; the
    /// later ones stay.
    mutating func take(before time: SimTime?) -> [Envelope] {
        let due: [Envelope]
        if let time {
            due = held.filter { $0.simTimeMs < time.wireMilliseconds }
            held.removeAll { $0.simTimeMs < time.wireMilliseconds }
        } else {
            due = held
            held = []
        }
        return due.sorted { ($0.simTimeMs, $0.sender, $0.sequence) < ($1.simTimeMs, $1.sender, $1.sequence) }
    }
}
