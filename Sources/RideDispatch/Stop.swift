/// One stop of a driver's plan: picking a rider up or dropping one off.
public struct Stop: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case pickup, dropoff }
    public let kind: Kind
    public let request: RequestID
    public let node: Int

    public init(_ kind: Kind, _ request: RequestID, at node: Int) {
        self.kind = kind
        self.request = request
        self.node = node
    }
}
