import City
import Testing

@testable import DispatchService

@Suite struct CompactCodingTests {
    enum Phase: Codable, Equatable {
        case waiting
        case offered(Int, expires: Double)
        case finished(reason: String?)
    }

    struct Inner: Codable, Equatable {
        var name: String
        var small: [UInt8]
        var maybe: Int?
    }

    struct Narrow: Codable, Equatable {
        var a: Int16
        var b: UInt16
        var c: Int8
        var d: Float
    }

    struct Sample: Codable, Equatable {
        var id: Int
        var unsigned: UInt
        var narrow: Narrow
        var time: Double
        var flags: [Bool]
        var phase: Phase
        var phases: [Phase]
        var byName: [String: Inner]
        var byNumber: [Int: [Double?]]
        var byPhase: [Int64: Phase?]
        var members: Set<Int32>
        var nested: [[String]]
        var nothing: String?
        var something: Inner?
        var doubleOptional: Int??

        static func == (a: Sample, b: Sample) -> Bool {
            a.id == b.id && a.narrow == b.narrow && a.unsigned == b.unsigned && a.time.bitPattern == b.time.bitPattern
                && a.flags == b.flags
                && a.phase == b.phase && a.phases == b.phases && a.byName == b.byName && a.byNumber == b.byNumber
                && a.byPhase == b.byPhase && a.members == b.members && a.nested == b.nested && a.nothing == b.nothing
                && a.something == b.something && a.doubleOptional == b.doubleOptional
        }

        enum CodingKeys: CodingKey {
            case id, unsigned, narrow, time, flags, phase, phases, byName, byNumber, byPhase, members, nested, nothing, something
            case doubleOptional
        }
    }

    static let sample = Sample(
        id: -42, unsigned: .max, narrow: Narrow(a: -3, b: 65_000, c: -128, d: 0.25), time: -0.0, flags: [true, false, true],
        phase: .offered(7, expires: 12.5), phases: [.waiting, .finished(reason: nil), .finished(reason: "gone")],
        byName: ["a": Inner(name: "ä€", small: [0, 255], maybe: nil), "": Inner(name: "", small: [], maybe: 3)],
        byNumber: [1: [nil, 2.5], -9: []], byPhase: [5: .waiting, 6: nil], members: [1, -2, .max],
        nested: [[], ["x", "y"]], nothing: nil, something: Inner(name: "n", small: [1], maybe: 0), doubleOptional: .some(nil))

    @Test func roundTrip() throws {
        let bytes = try CompactEncoder.encode(Self.sample)
        let back = try CompactDecoder.decode(Sample.self, from: bytes[...])
        #expect(back == Self.sample)
    }

    @Test func fixedWidthsAndFlags() throws {
        #expect(try CompactEncoder.encode(Int(1)) == [1, 0, 0, 0, 0, 0, 0, 0])
        // Arrays of numbers and points are written at once, in the same form as one by one.
        #expect(
            try CompactEncoder.encode([Int(1), -1]) == [2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8))
        #expect(try CompactEncoder.encode([0.5]) == [1, 0, 0, 0] + CompactEncoder.encode(0.5))
        let points = [GeoPoint(lat: 40.7, lon: -74), GeoPoint(lat: 0, lon: 1)]
        let oneByOne = try points.flatMap { try CompactEncoder.encode($0.lat) + CompactEncoder.encode($0.lon) }
        #expect(try CompactEncoder.encode(points) == [2, 0, 0, 0] + oneByOne)
        #expect(try CompactDecoder.decode([GeoPoint].self, from: CompactEncoder.encode(points)[...]) == points)
        #expect(try CompactDecoder.decode([UInt8].self, from: [3, 0, 0, 0, 7, 8, 9]) == [7, 8, 9])
        #expect(throws: DecodingError.self) { try CompactDecoder.decode([Double].self, from: [2, 0, 0, 0, 1]) }
        #expect(try CompactEncoder.encode(Optional(UInt8(9))) == [1, 9])
        #expect(try CompactEncoder.encode(UInt8?.none) == [0])
        #expect(try CompactEncoder.encode("hé") == [3, 0, 0, 0, 0x68, 0xC3, 0xA9])
        #expect(try CompactEncoder.encode([UInt16(1), 2]) == [2, 0, 0, 0, 1, 0, 2, 0])
        #expect(try CompactEncoder.encode(Phase.waiting) == [7, 0, 0, 0] + Array("waiting".utf8))
        #expect(try CompactDecoder.decode(Int16.self, from: [0xFE, 0xFF]) == -2)
        #expect(try CompactDecoder.decode(Float.self, from: CompactEncoder.encode(Float(1.5))[...]) == 1.5)
    }

    @Test func corruptBytesThrowWithTheirOffset() throws {
        let bytes = try CompactEncoder.encode(Self.sample)
        for cut in [0, 1, 8, bytes.count / 2, bytes.count - 1] {
            #expect(throws: DecodingError.self) { try CompactDecoder.decode(Sample.self, from: bytes[0..<cut]) }
        }
        #expect(throws: DecodingError.self) { try CompactDecoder.decode(Bool.self, from: [2]) }
        #expect(throws: DecodingError.self) { try CompactDecoder.decode(Int.self, from: [1, 0, 0, 0, 0, 0, 0, 0, 0]) }
        // A count far beyond the bytes left is refused before anything is reserved.
        #expect(throws: DecodingError.self) { try CompactDecoder.decode([Int].self, from: [0xFF, 0xFF, 0xFF, 0x7F]) }
        do {
            _ = try CompactDecoder.decode(Phase.self, from: CompactEncoder.encode("nocase")[...])
            Issue.record("an unknown case was decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(!context.debugDescription.isEmpty)
        } catch {
            // Synthesized enum decoding reports an unknown key its own way.
        }
    }
}
