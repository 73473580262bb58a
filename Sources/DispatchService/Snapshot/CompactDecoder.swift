import City

/// Reads values written by ``CompactEncoder``; bytes that end early or hold an impossible value
/// throw `DecodingError.dataCorrupted` naming the byte offset.
struct CompactDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from bytes: ArraySlice<UInt8>) throws -> T {
        let source = CompactSource(bytes: bytes)
        let value = try source.read(T.self)
        guard source.offset == bytes.endIndex else {
            throw source.corrupted("\(bytes.endIndex - source.offset) bytes after the value")
        }
        return value
    }
}

/// The bytes of one decoding and where reading is, and the `Decoder` every container reads
/// through.
final class CompactSource: Decoder {
    let bytes: ArraySlice<UInt8>
    var offset: Int
    /// Types found to be neither optionals nor dictionaries (see ``CompactSink``).
    private var plain: Set<ObjectIdentifier> = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        offset = bytes.startIndex
    }

    func corrupted(_ reason: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "at byte \(offset - bytes.startIndex): \(reason)"))
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let size = MemoryLayout<T>.size
        guard bytes.endIndex - offset >= size else { throw corrupted("the bytes end inside a \(T.self)") }
        var value: T = 0
        withUnsafeMutableBytes(of: &value) { raw in
            bytes.withUnsafeBytes { source in
                raw.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[(offset - bytes.startIndex)...].prefix(size)))
            }
        }
        offset += size
        return T(littleEndian: value)
    }

    func count() throws -> Int {
        let count = Int(try integer(UInt32.self))
        // Every element takes at least a byte: a larger count is corrupt, not a reason to reserve memory.
        guard count <= bytes.endIndex - offset else { throw corrupted("a count of \(count) with fewer bytes left") }
        return count
    }

    func string() throws -> String {
        let length = try count()
        defer { offset += length }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    /// An array of fixed-width values written at once (``CompactSink/raw(_:)``).
    func raw<Element>(_ type: Element.Type) throws -> [Element] {
        let count = Int(try integer(UInt32.self))
        let size = count * MemoryLayout<Element>.stride
        guard size <= bytes.endIndex - offset else { throw corrupted("\(count) \(Element.self)s with fewer bytes left") }
        // Not through unsafeUninitializedCapacity when empty: with a capacity of 0 it writes the
        // count into the empty-array singleton that every thread shares (ThreadSanitizer sees two
        // decoders race on it).
        guard count > 0 else { return [] }
        let array = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                let start = offset - bytes.startIndex
                UnsafeMutableRawBufferPointer(buffer).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[start..<(start + size)]))
            }
            initialized = count
        }
        offset += size
        return array
    }

    func flag() throws -> Bool {
        switch try integer(UInt8.self) {
        case 0: return false
        case 1: return true
        case let other: throw corrupted("\(other) where a flag (0 or 1) belongs")
        }
    }

    /// Reads one value in the form ``CompactSink/write(_:)`` gave it.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Int.self {
            return unsafeBitCast(Int(try integer(Int64.self)), to: T.self)
        } else if T.self == Double.self {
            return unsafeBitCast(Double(bitPattern: try integer(UInt64.self)), to: T.self)
        } else if T.self == String.self {
            return unsafeBitCast(try string(), to: T.self)
        } else if T.self == Bool.self {
            return unsafeBitCast(try flag(), to: T.self)
        } else if T.self == UInt8.self {
            return unsafeBitCast(try integer(UInt8.self), to: T.self)
        } else if T.self == UInt32.self {
            return unsafeBitCast(try integer(UInt32.self), to: T.self)
        } else if T.self == UInt64.self {
            return unsafeBitCast(try integer(UInt64.self), to: T.self)
        } else if T.self == Int64.self {
            return unsafeBitCast(try integer(Int64.self), to: T.self)
        } else if T.self == Int32.self {
            return unsafeBitCast(try integer(Int32.self), to: T.self)
        } else if T.self == [UInt8].self {
            return unsafeBitCast(try raw(UInt8.self), to: T.self)
        } else if T.self == [Int].self {
            return unsafeBitCast(try raw(Int.self), to: T.self)
        } else if T.self == [Double].self {
            return unsafeBitCast(try raw(Double.self), to: T.self)
        } else if T.self == [GeoPoint].self {
            return unsafeBitCast(try raw(GeoPoint.self), to: T.self)
        } else if T.self == UInt.self {
            return unsafeBitCast(UInt(try integer(UInt64.self)), to: T.self)
        } else if T.self == Int16.self {
            return unsafeBitCast(try integer(Int16.self), to: T.self)
        } else if T.self == UInt16.self {
            return unsafeBitCast(try integer(UInt16.self), to: T.self)
        } else if T.self == Int8.self {
            return unsafeBitCast(try integer(Int8.self), to: T.self)
        } else if T.self == Float.self {
            return unsafeBitCast(Float(bitPattern: try integer(UInt32.self)), to: T.self)
        } else if plain.contains(ObjectIdentifier(T.self)) {
            return try T(from: self)
        } else if let optional = T.self as? any CompactOptional.Type {
            guard try flag() else { return optional.compactMake(nil) as! T }
            return optional.compactMake(try read(optional.compactWrappedType)) as! T
        } else if let dictionary = T.self as? any CompactDictionary.Type {
            return try dictionary.compactDecode(from: self) as! T
        }
        plain.insert(ObjectIdentifier(T.self))
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CompactKeyedReader<Key>(source: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        CompactUnkeyedReader(source: self, count: try count())
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { CompactSingleReader(source: self) }
}

struct CompactKeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let source: CompactSource
    var codingPath: [any CodingKey] { [] }

    /// Only synthesized enum decoding asks: the one key is the case's name, read ahead (and read
    /// again by ``nestedContainer(keyedBy:forKey:)``).
    var allKeys: [Key] {
        let start = source.offset
        defer { source.offset = start }
        guard let name = try? source.string(), let key = Key(stringValue: name) else { return [] }
        return [key]
    }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { !(try source.flag()) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try source.read(T.self) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try present(T.self) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(type) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try present(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(type) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(type) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(type) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(type) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(type) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(type) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try present(type) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try present(type) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(type) }

    private func present<T: Decodable>(_ type: T.Type) throws -> T? {
        try source.flag() ? try source.read(T.self) : nil
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let name = try source.string()
        guard name == key.stringValue else { throw source.corrupted("case \(name) where \(key.stringValue) was read") }
        return KeyedDecodingContainer(CompactKeyedReader<NestedKey>(source: source))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try source.unkeyedContainer() }
    func superDecoder() throws -> any Decoder { source }
    func superDecoder(forKey key: Key) throws -> any Decoder { source }
}

struct CompactUnkeyedReader: UnkeyedDecodingContainer {
    let source: CompactSource
    let total: Int
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { total }
    var isAtEnd: Bool { currentIndex >= total }

    init(source: CompactSource, count: Int) {
        self.source = source
        total = count
    }

    private mutating func next() throws {
        guard !isAtEnd else { throw source.corrupted("more elements read than the \(total) written") }
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        // Optionals carry their own presence byte (``CompactSource/read(_:)``): nothing here is nil.
        false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try next()
        return try source.read(T.self)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey>
    {
        try next()
        return try source.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next()
        return try source.unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next()
        return source
    }
}

struct CompactSingleReader: SingleValueDecodingContainer {
    let source: CompactSource
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try source.read(T.self) }
}
