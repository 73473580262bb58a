/// Numbers by name as the window messages carry them: the names in one list and the numbers in
/// another of the same length, entry *i* of each together, in the order of the names (so that the
/// same values always make the same bytes). Cheaper on the wire than an entry message per name,
/// which SwiftProtobuf encodes and decodes as a nested message of its own.
struct ParallelLists<Value: Sendable & Equatable>: Sendable, Equatable {
    private(set) var names: [String]
    private(set) var values: [Value]

    /// The lists of `dictionary`, in the order of its names.
    init(_ dictionary: [String: Value]) {
        let sorted = dictionary.sorted { $0.key < $1.key }
        names = sorted.map(\.key)
        values = sorted.map(\.value)
    }

    /// Lists read off the wire; `nil` if their lengths differ (a malformed message).
    init?(names: [String], values: [Value]) {
        guard names.count == values.count else { return nil }
        self.names = names
        self.values = values
    }

    /// Both lists, for assigning to a message's two fields at once.
    var lists: ([String], [Value]) { (names, values) }

    /// The numbers by name (the last one for a name given twice, as a map's decoding does).
    var dictionary: [String: Value] {
        var dictionary: [String: Value] = [:]
        dictionary.reserveCapacity(names.count)
        for index in names.indices { dictionary[names[index]] = values[index] }
        return dictionary
    }
}
