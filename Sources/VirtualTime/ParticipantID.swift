/// A process that takes part in virtual time (dispatch, a rider or driver host) in one of its
/// lives: `incarnation` is 1 for its first start and +1 for each restart.
public struct ParticipantID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var name: String
    public var incarnation: UInt32

    public init(_ name: String, incarnation: UInt32 = 1) {
        self.name = name
        self.incarnation = incarnation
    }

    /// The key a receiver counts this participant's messages under: one count per life, since a
    /// new life starts counting from zero.
    public var senderKey: String { "\(name)#\(incarnation)" }

    public static func < (a: ParticipantID, b: ParticipantID) -> Bool {
        (a.name, a.incarnation) < (b.name, b.incarnation)
    }

    public var description: String { senderKey }
}
