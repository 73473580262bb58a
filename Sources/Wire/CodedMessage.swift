import SwiftProtobuf

/// A protobuf message inside a `Codable` value, as its wire bytes (a snapshot of dispatch keeps
/// the last trip update and leg sent on each line this way).
public struct CodedMessage<Message: SwiftProtobuf.Message & Sendable>: Codable, Sendable {
    public var message: Message

    public init(_ message: Message) { self.message = message }

    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try message.serializedBytes() as [UInt8])
    }

    public init(from decoder: any Swift.Decoder) throws {
        let bytes = try decoder.singleValueContainer().decode([UInt8].self)
        message = try Message(serializedBytes: bytes)
    }
}

/// A protobuf enum inside a `Codable` value, as its number.
extension SwiftProtobuf.Enum where Self: Codable {
    public func encode(to encoder: any Swift.Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public init(from decoder: any Swift.Decoder) throws {
        let number = try decoder.singleValueContainer().decode(Int.self)
        guard let value = Self(rawValue: number) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "no \(Self.self) numbered \(number)"))
        }
        self = value
    }
}

extension Role: Codable {}
extension DispatchEventKind: Codable {}
