/// Why a frame could not be taken as a ribcity message. Never fatal: count it, drop it, go on.
public enum WireError: Error, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The message had the wrong number of frames for its socket (`expected` is a description).
    case frameCount(got: Int, expected: String)
    /// The payload frame is larger than ``WireCodec/maximumPayloadBytes``.
    case tooLarge(bytes: Int)
    /// The payload is not a valid protobuf Envelope.
    case malformed(reason: String)
    /// The Envelope's protocol version is not one this build speaks (0 means it was missing).
    case unsupportedVersion(UInt32)
    /// The Envelope carries no body this build knows (missing, or a newer message type).
    case unknownBody
    /// A topic frame on the bus is empty or not UTF-8.
    case badTopic

    /// A short stable name for counting failures by kind.
    public var kind: String {
        switch self {
        case .frameCount: "frame-count"
        case .tooLarge: "too-large"
        case .malformed: "malformed"
        case .unsupportedVersion: "unsupported-version"
        case .unknownBody: "unknown-body"
        case .badTopic: "bad-topic"
        }
    }

    public var description: String {
        switch self {
        case let .frameCount(got, expected): "\(got) frames, expected \(expected)"
        case let .tooLarge(bytes): "payload of \(bytes) bytes exceeds \(WireCodec.maximumPayloadBytes)"
        case let .malformed(reason): "not a ribcity Envelope: \(reason)"
        case let .unsupportedVersion(version):
            version == 0
                ? "protocol_version missing"
                : "protocol_version \(version) unsupported (this build speaks \(WireCodec.protocolVersion))"
        case .unknownBody: "Envelope has no body this build knows"
        case .badTopic: "topic frame empty or not UTF-8"
        }
    }
}

/// Malformed input seen by one receiver, by kind: what "counted and dropped" is counted in.
public struct WireErrorCounts: Sendable, Equatable, Codable {
    public private(set) var byKind: [String: Int] = [:]

    public init() {}

    public var total: Int { byKind.values.reduce(0, +) }

    public mutating func record(_ error: WireError) {
        record(kind: error.kind)
    }

    /// Counts one failure of the kind named (``WireError/kind``).
    public mutating func record(kind: String) {
        byKind[kind, default: 0] += 1
    }
}
