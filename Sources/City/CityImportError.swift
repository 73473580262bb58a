/// Why a city could not be imported, naming the file and what is wrong.
public struct CityImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// The line where the problem was found, when known.
    public let line: Int?
    public let reason: String

    public init(file: String, line: Int? = nil, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)"
    }
}
