import Foundation
import Monitor
import Wire

/// A run's tables for analysts, in its directory: `trips.csv` (a row per request, appended as
/// each ends) and `drivers.csv` (a row per driver, rewritten every 30 s of wall time and at the
/// end), both from dispatch's events on the bus.
struct RunTables: Sendable {
    static let drivers = "drivers.csv"
    static let trips = "trips.csv"
    static let driversEvery = Duration.seconds(30)

    private let directory: RunDirectory
    private let tripsFile: FileHandle
    private var tripLedger: TripLedger
    private var driverLedger = DriverLedger()
    /// A restored dispatch publishes its last events again: both tables count each once.
    private var sequences = SequenceTracker()
    private var latestMs: Int64 = 0
    private var driversWritten = ContinuousClock.now

    init(directory: RunDirectory, clock: ClockTimeOfDay) throws {
        self.directory = directory
        tripLedger = TripLedger(clock: clock)
        try directory.write(TripLedger.header, to: Self.trips)
        tripsFile = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.file(Self.trips)))
        tripsFile.seekToEndOfFile()
    }

    mutating func apply(_ envelopes: [Envelope]) {
        var lines = ""
        for envelope in envelopes {
            guard case .dispatchEvent? = envelope.body,
                sequences.observe(sender: envelope.sender, sequence: envelope.sequence) != .duplicate
            else { continue }
            latestMs = max(latestMs, envelope.simTimeMs)
            for trip in tripLedger.apply(envelope) { lines += tripLedger.csvLine(trip) }
            driverLedger.apply(envelope)
        }
        if !lines.isEmpty { tripsFile.write(Data(lines.utf8)) }
        if ContinuousClock.now - driversWritten >= Self.driversEvery { writeDrivers(at: latestMs) }
    }

    /// Writes the requests still open as `openAs`, and the drivers' time up to `milliseconds`.
    mutating func finish(openAs outcome: String, at milliseconds: Int64) {
        let rest = tripLedger.finish(as: outcome).map(tripLedger.csvLine).joined()
        if !rest.isEmpty { tripsFile.write(Data(rest.utf8)) }
        try? tripsFile.close()
        writeDrivers(at: max(latestMs, milliseconds))
    }

    private mutating func writeDrivers(at milliseconds: Int64) {
        driversWritten = .now
        let table = DriverLedger.header + driverLedger.rows(at: milliseconds).map(DriverLedger.csvLine).joined()
        try? directory.write(table, to: Self.drivers)
    }
}
