import City

/// Writes `Encodable` values in the compact binary form of dispatch's snapshots (read back by
/// ``CompactDecoder``): no field names, values in the order their type encodes them.
///
/// - Integers and floating-point numbers: fixed width, little-endian (`Int` and `UInt` as 64
///   bits, `Double` by its IEEE 754 bits); `Bool` one byte.
/// - Strings: a 32-bit byte count, then UTF-8.
/// - Optionals: a byte, 0 for none or 1 followed by the value.
/// - Sequences (arrays, sets) and dictionaries: a 32-bit count, then the elements (a dictionary's
///   as key, value, key, value).
/// - A struct: its fields in declaration order (what synthesized `Codable` does), nothing else.
/// - An enum with synthesized `Codable`: the case's name as a string, then its associated values.
///
/// The form is exactly as stable as the types: a snapshot is only read by the build that wrote
/// it, or one whose ``DispatchSnapshot/formatVersion`` is the same (docs/ARCHITECTURE.md).
struct CompactEncoder {
    /// The bytes of `value`.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let sink = CompactSink()
        try sink.write(value)
        return sink.bytes
    }
}

#if !_endian(little)
    #error("CompactEncoder writes arrays of numbers as their memory: a little-endian platform only")
#endif

/// The shared buffer of one encoding, and the `Encoder` every container writes through.
final class CompactSink: Encoder {
    var bytes: [UInt8] = []
    /// Types found to be neither optionals nor dictionaries: asked again, a cast costs more than
    /// the look-up.
    private var plain: Set<ObjectIdentifier> = []
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func integer<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            integer(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// An array of fixed-width values at once: its count, then its elements' bytes (`Int` and
    /// `Double` are 64 bits, as one by one; the bytes are little-endian on every platform Swift
    /// runs this on, which the build checks).
    func raw<Element>(_ array: [Element]) {
        integer(UInt32(array.count))
        array.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Reserves a count to be filled in as elements come (see ``CompactUnkeyedWriter``).
    func reserveCount() -> Int {
        defer { integer(UInt32(0)) }
        return bytes.count
    }

    func setCount(_ count: Int, at offset: Int) {
        withUnsafeBytes(of: UInt32(count).littleEndian) { raw in
            for index in 0..<4 { bytes[offset + index] = raw[index] }
        }
    }

    /// Writes one value: the fixed forms above for the standard library's types, the value's own
    /// `encode(to:)` for the rest.
    func write<T: Encodable>(_ value: T) throws {
        // Compared by type, not cast: a failed cast per standard type would cost more than the write.
        if T.self == Int.self {
            integer(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Double.self {
            integer(unsafeBitCast(value, to: Double.self).bitPattern)
        } else if T.self == String.self {
            string(unsafeBitCast(value, to: String.self))
        } else if T.self == Bool.self {
            integer(UInt8(unsafeBitCast(value, to: Bool.self) ? 1 : 0))
        } else if T.self == UInt8.self {
            integer(unsafeBitCast(value, to: UInt8.self))
        } else if T.self == UInt32.self {
            integer(unsafeBitCast(value, to: UInt32.self))
        } else if T.self == UInt64.self {
            integer(unsafeBitCast(value, to: UInt64.self))
        } else if T.self == Int64.self {
            integer(unsafeBitCast(value, to: Int64.self))
        } else if T.self == Int32.self {
            integer(unsafeBitCast(value, to: Int32.self))
        } else if T.self == [UInt8].self {
            raw(unsafeBitCast(value, to: [UInt8].self))
        } else if T.self == [Int].self {
            raw(unsafeBitCast(value, to: [Int].self))
        } else if T.self == [Double].self {
            raw(unsafeBitCast(value, to: [Double].self))
        } else if T.self == [GeoPoint].self {
            // Two doubles, lat then lon, with no padding: its fields' form is its memory.
            raw(unsafeBitCast(value, to: [GeoPoint].self))
        } else if T.self == UInt.self {
            integer(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else if T.self == Int16.self {
            integer(unsafeBitCast(value, to: Int16.self))
        } else if T.self == UInt16.self {
            integer(unsafeBitCast(value, to: UInt16.self))
        } else if T.self == Int8.self {
            integer(unsafeBitCast(value, to: Int8.self))
        } else if T.self == Float.self {
            integer(unsafeBitCast(value, to: Float.self).bitPattern)
        } else if plain.contains(ObjectIdentifier(T.self)) {
            try value.encode(to: self)
        } else if let value = value as? any CompactOptional {
            if let wrapped = value.compactWrapped {
                integer(UInt8(1))
                try write(wrapped)
            } else {
                integer(UInt8(0))
            }
        } else if let value = value as? any CompactDictionary {
            try value.compactEncode(into: self)
        } else {
            plain.insert(ObjectIdentifier(T.self))
            try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CompactKeyedWriter<Key>(sink: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        CompactUnkeyedWriter(sink: self, countOffset: reserveCount())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { CompactSingleWriter(sink: self) }
}

/// Optionals are written with a presence byte wherever they appear (synthesized code skips a
/// `nil` field in keyed containers, which a form without field names cannot do).
protocol CompactOptional {
    var compactWrapped: (any Encodable)? { get }
    static var compactWrappedType: any Decodable.Type { get }
    static func compactMake(_ wrapped: (any Decodable)?) -> Self
}

extension Optional: CompactOptional where Wrapped: Codable {
    var compactWrapped: (any Encodable)? { self }
    static var compactWrappedType: any Decodable.Type { Wrapped.self }
    static func compactMake(_ wrapped: (any Decodable)?) -> Self { wrapped as? Wrapped }
}

/// Dictionaries are written as a count and their pairs (the standard library writes those with
/// `String` or `Int` keys as keyed containers, whose keys a reader must list before the values).
protocol CompactDictionary {
    func compactEncode(into sink: CompactSink) throws
    static func compactDecode(from source: CompactSource) throws -> Self
}

extension Dictionary: CompactDictionary where Key: Codable, Value: Codable {
    func compactEncode(into sink: CompactSink) throws {
        sink.integer(UInt32(count))
        for (key, value) in self {
            try sink.write(key)
            try sink.write(value)
        }
    }

    static func compactDecode(from source: CompactSource) throws -> Self {
        let count = try source.count()
        var dictionary: Self = [:]
        dictionary.reserveCapacity(count)
        for _ in 0..<count {
            let key = try source.read(Key.self)
            dictionary[key] = try source.read(Value.self)
        }
        return dictionary
    }
}

struct CompactKeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: CompactSink
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil(forKey key: Key) throws { sink.integer(UInt8(0)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try sink.write(value) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value) }

    private func present<T: Encodable>(_ value: T?) throws {
        guard let value else { return sink.integer(UInt8(0)) }
        sink.integer(UInt8(1))
        try sink.write(value)
    }

    /// Only synthesized enum coding nests keyed containers: the key is the case, written by name.
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    )
        -> KeyedEncodingContainer<NestedKey>
    {
        sink.string(key.stringValue)
        return KeyedEncodingContainer(CompactKeyedWriter<NestedKey>(sink: sink))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { sink.unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { sink }
    mutating func superEncoder(forKey key: Key) -> any Encoder { sink }
}

struct CompactUnkeyedWriter: UnkeyedEncodingContainer {
    let sink: CompactSink
    let countOffset: Int
    private(set) var count = 0
    var codingPath: [any CodingKey] { [] }

    init(sink: CompactSink, countOffset: Int) {
        self.sink = sink
        self.countOffset = countOffset
    }

    private mutating func counted() {
        count += 1
        sink.setCount(count, at: countOffset)
    }

    mutating func encodeNil() throws {
        sink.integer(UInt8(0))
        counted()
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try sink.write(value)
        counted()
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        counted()
        return sink.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        counted()
        return sink.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        counted()
        return sink
    }
}

struct CompactSingleWriter: SingleValueEncodingContainer {
    let sink: CompactSink
    var codingPath: [any CodingKey] { [] }

    mutating func encodeNil() throws { sink.integer(UInt8(0)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try sink.write(value) }
}
