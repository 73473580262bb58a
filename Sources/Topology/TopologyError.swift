/// Why a topology cannot be used: the file, the key (as a dotted path), the line, and the reason.
public struct TopologyError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let key: String
    public let line: Int?
    public let reason: String

    public init(file: String, key: String, line: Int?, reason: String) {
        self.file = file
        self.key = key
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return key.isEmpty ? "\(place): \(reason)" : "\(place): \(key): \(reason)"
    }
}
