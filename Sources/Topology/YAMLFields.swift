import Yams

/// Reads one YAML mapping of a topology field by field, knowing its dotted path for errors; keys
/// never asked for are errors ("unknown key"), so a typo is never silently ignored.
struct YAMLFields {
    let file: String
    let path: String
    let node: Node
    private let entries: [(key: String, value: Node, line: Int?)]
    private var asked: Set<String> = []

    init(_ node: Node, path: String, file: String) throws(TopologyError) {
        self.file = file
        self.path = path
        self.node = node
        guard let mapping = node.mapping else {
            throw TopologyError(file: file, key: path, line: node.mark?.line, reason: "must be a mapping of keys to values")
        }
        var entries: [(key: String, value: Node, line: Int?)] = []
        for (key, value) in mapping {
            guard let name = key.string else {
                throw TopologyError(file: file, key: path, line: key.mark?.line, reason: "keys must be plain names")
            }
            entries.append((name, value, key.mark?.line))
        }
        self.entries = entries
    }

    func error(_ key: String?, _ reason: String, at node: Node? = nil) -> TopologyError {
        let full = [path, key].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ".")
        return TopologyError(file: file, key: full, line: (node ?? self.node).mark?.line, reason: reason)
    }

    func has(_ key: String) -> Bool { entries.contains { $0.key == key } }

    mutating func node(_ key: String) -> Node? {
        asked.insert(key)
        return entries.first { $0.key == key }?.value
    }

    mutating func fields(_ key: String) throws(TopologyError) -> YAMLFields? {
        guard let value = node(key) else { return nil }
        return try YAMLFields(value, path: [path, key].filter { !$0.isEmpty }.joined(separator: "."), file: file)
    }

    mutating func string(_ key: String) throws(TopologyError) -> String? {
        guard let value = node(key) else { return nil }
        guard let text = value.scalar?.string, !text.isEmpty else { throw error(key, "must be text", at: value) }
        return text
    }

    mutating func double(_ key: String, in range: ClosedRange<Double>? = nil) throws(TopologyError) -> Double? {
        guard let value = node(key) else { return nil }
        guard let number = value.float ?? value.int.map(Double.init), number.isFinite else {
            throw error(key, "must be a number, not '\(value.scalar?.string ?? "a structure")'", at: value)
        }
        if let range, !range.contains(number) {
            throw error(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(number)", at: value)
        }
        return number
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>? = nil) throws(TopologyError) -> Int? {
        guard let value = node(key) else { return nil }
        guard let number = value.int else {
            throw error(key, "must be a whole number, not '\(value.scalar?.string ?? "a structure")'", at: value)
        }
        if let range, !range.contains(number) {
            throw error(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(number)", at: value)
        }
        return number
    }

    mutating func bool(_ key: String) throws(TopologyError) -> Bool? {
        guard let value = node(key) else { return nil }
        guard let flag = value.bool else { throw error(key, "must be true or false", at: value) }
        return flag
    }

    /// One of `choices`.
    mutating func choice(_ key: String, _ choices: [String]) throws(TopologyError) -> String? {
        guard let text = try string(key) else { return nil }
        guard choices.contains(text) else {
            throw error(key, "'\(text)' is not one of \(choices.joined(separator: ", "))", at: node(key))
        }
        return text
    }

    /// A duration: seconds as a number, or text such as `90s`, `45m`, `2h`.
    mutating func duration(_ key: String) throws(TopologyError) -> Double? {
        guard let value = node(key) else { return nil }
        if let number = value.float ?? value.int.map(Double.init), number > 0 { return number }
        let text = value.scalar?.string ?? ""
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600]
        guard let unit = text.last.flatMap({ units[$0] }), let amount = Double(text.dropLast()), amount > 0 else {
            throw error(key, "must be a duration such as 3600, 90s, 45m or 2h, not '\(text)'", at: value)
        }
        return amount * unit
    }

    /// A range written `[low, high]` (or one number for both).
    mutating func range(_ key: String, in bounds: ClosedRange<Double>) throws(TopologyError) -> ClosedRange<Double>? {
        guard let value = node(key) else { return nil }
        let numbers = (value.sequence.map { Array($0) } ?? [value]).map { $0.float ?? $0.int.map(Double.init) }
        guard (1...2).contains(numbers.count), let low = numbers.first!, let high = numbers.last!, low <= high,
            bounds.contains(low), bounds.contains(high)
        else {
            throw error(key, "must be a number or [low, high] within \(bounds.lowerBound)…\(bounds.upperBound)", at: value)
        }
        return low...high
    }

    /// Fails on the first key nobody asked for.
    func finish() throws(TopologyError) {
        if let unknown = entries.first(where: { !asked.contains($0.key) }) {
            let known = asked.sorted().joined(separator: ", ")
            throw TopologyError(
                file: file, key: [path, unknown.key].filter { !$0.isEmpty }.joined(separator: "."),
                line: unknown.line, reason: "unknown key (known here: \(known))")
        }
    }

    /// The top mapping of a whole YAML document; text that is empty or not YAML is an error
    /// naming the file and, where the parser knows it, the line.
    init(document text: String, file: String) throws(TopologyError) {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw TopologyError(file: file, key: "", line: nil, reason: "is empty")
            }
            root = node
        } catch let error as TopologyError {
            throw error
        } catch let error as YamlError {
            throw TopologyError(
                file: file, key: "", line: Self.line(of: error), reason: "is not valid YAML: \(Self.problem(of: error))")
        } catch {
            throw TopologyError(file: file, key: "", line: nil, reason: "is not valid YAML: \(error)")
        }
        try self.init(root, path: "", file: file)
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }

    private static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): problem
        case .duplicatedKeysInMapping(let duplicates, _): "duplicated keys \(duplicates.joined(separator: ", "))"
        default: "\(error)"
        }
    }
}
