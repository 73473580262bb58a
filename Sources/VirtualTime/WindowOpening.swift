/// What the keeper tells every participant when it opens a window (or asks for a drain).
public struct WindowOpening: Hashable, Sendable {
    public enum Purpose: Hashable, Sendable {
        /// Handle every input and timer before the window's end, then report.
        case advance
        /// Handle nothing: only take in every message expected so far, then report (the keeper
        /// drains the network before it kills a process, so that nothing is in flight to or from it).
        case drain
    }

    public var window: Window
    public var purpose: Purpose
    /// For each participant (by name): how many messages it must have received in all, from each
    /// sender life (``ParticipantID/senderKey``), before it starts on the window.
    public var expected: [String: [String: UInt64]]
    /// The life each participant is in, for addressing messages.
    public var incarnations: [String: UInt32]
    /// Who works through the window: every participant but those that may sit out a window and
    /// have nothing due before its end (the keeper's; not on the wire). `nil`: everyone.
    public var recipients: Set<String>?

    public init(
        window: Window, purpose: Purpose = .advance, expected: [String: [String: UInt64]] = [:],
        incarnations: [String: UInt32] = [:], recipients: Set<String>? = nil
    ) {
        self.window = window
        self.purpose = purpose
        self.expected = expected
        self.incarnations = incarnations
        self.recipients = recipients
    }

    /// The participants the window is sent to, in name order.
    public var addressees: [String] { (recipients.map(Array.init) ?? Array(incarnations.keys)).sorted() }

    /// What `participant` must have received before it starts on the window.
    public func expectations(of participant: String) -> [String: UInt64] { expected[participant] ?? [:] }
}
