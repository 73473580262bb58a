import Foundation
import Testing

@testable import RideDispatch

@Suite("A request's record in its flat form: every phase and every optional back as it was, damage refused")
struct RequestRecordCodingTests {
    static let quote = Quote(priceCents: 1_234, surge: 1.3, pickupETA: 95.5, tripSeconds: 610.25, tripMetres: 4_020.5)

    static func record(
        _ phase: RequestRecord.Phase, pickupAt: Double? = nil, pickupETA: Double? = 95.5, pickedUpAt: Double? = nil,
        declinedBy: Set<DriverID> = []
    ) -> RequestRecord {
        var record = RequestRecord(
            request: RideRequest(
                id: RequestID(42), rider: 7, origin: 1_001, destination: 2_002, product: pickupAt == nil ? .standard : .pool,
                pickupAt: pickupAt),
            quote: Quote(priceCents: 1_234, surge: 1.3, pickupETA: pickupETA, tripSeconds: 610.25, tripMetres: 4_020.5),
            requestedAt: 3_600.125, phase: phase, waitingSince: 3_601.5, pickedUpAt: pickedUpAt)
        record.declinedBy = declinedBy
        return record
    }

    static let records: [RequestRecord] = [
        record(.scheduled, pickupAt: 7_200),
        record(.waiting, pickupETA: nil, declinedBy: [DriverID(3), DriverID(11), DriverID(5)]),
        record(.offered(DriverID(9))),
        record(.assigned(DriverID(9))),
        record(.aboard(DriverID(9)), pickedUpAt: 3_700),
        record(.finished(.completed(Fare(riderPaysCents: 1_234, driverEarnsCents: 987, platformCents: 247))), pickedUpAt: 3_700),
        record(.finished(.cancelled(by: .driver, reason: "the driver's session expired"))),
        record(.finished(.cancelled(by: .rider, reason: ""))),
        record(.finished(.rejected(reason: "no driver could be matched within 600 s"))),
        record(.frozen),
        record(.handedOut(shard: 3)),
    ]

    func same(_ a: RequestRecord, _ b: RequestRecord) -> Bool {
        a.request == b.request && a.quote == b.quote && a.requestedAt == b.requestedAt && a.phase == b.phase
            && a.waitingSince == b.waitingSince && a.pickedUpAt == b.pickedUpAt && a.declinedBy == b.declinedBy
    }

    @Test("Every phase, with and without its optional times, decodes to the record encoded", arguments: records.indices)
    func roundTrip(index: Int) throws {
        let record = Self.records[index]
        let decoded = try JSONDecoder().decode(RequestRecord.self, from: JSONEncoder().encode(record))
        #expect(same(decoded, record), "\(record.phase)")
    }

    @Test("A damaged record is refused with a reason, never taken for another")
    func damaged() throws {
        // Twelve whole numbers where there are thirteen.
        let short = Data("[[42,7,1001,2002,0,1234,1,0,2,0,0,0],[0,1.3,95.5,610.25,4020.5,3600.125,3601.5,0],[]]".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RequestRecord.self, from: short) }
        // A phase that does not exist.
        let phase = Data("[[42,7,1001,2002,0,1234,99,0,2,0,0,0,0],[0,1.3,95.5,610.25,4020.5,3600.125,3601.5,0],[]]".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RequestRecord.self, from: phase) }
        // A product that does not exist.
        let product = Data("[[42,7,1001,2002,5,1234,1,0,2,0,0,0,0],[0,1.3,95.5,610.25,4020.5,3600.125,3601.5,0],[]]".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RequestRecord.self, from: product) }
        // A cancelled ride without its reason.
        let reason = Data("[[42,7,1001,2002,0,1234,6,0,2,0,0,0,0],[0,1.3,95.5,610.25,4020.5,3600.125,3601.5,0],[]]".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(RequestRecord.self, from: reason) }
        // The same form, whole, decodes.
        let whole = Data("[[42,7,1001,2002,0,1234,1,0,2,0,0,0,0],[0,1.3,95.5,610.25,4020.5,3600.125,3601.5,0],[3]]".utf8)
        let record = try JSONDecoder().decode(RequestRecord.self, from: whole)
        #expect(record.phase == .waiting && record.declinedBy == [DriverID(3)] && record.quote.pickupETA == 95.5)
        #expect(record.request.pickupAt == nil && record.pickedUpAt == nil)
    }
}
