import ArgumentParser
import Foundation
import Monitor
import ProcessSupport
import RunRecording
import Wire
import ZeroMQ

/// `ribcity-recorder`: a run's bus into SQLite. A program of its own so that SQLite (GRDB) stays
/// out of `ribcity` and the core modules, whose builds stay fast; `ribcity launch --record` and
/// `ribcity stress` start it as the run's recorder role when it is built beside `ribcity`.
@main
struct RecorderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ribcity-recorder",
        abstract: "Record a ribcity run's event bus into SQLite (docs/RECORDING.md).",
        discussion: """
            Examples:
              ribcity-recorder import runs/downtown-20261124-101500/events.pb --database old.sqlite
              ribcity-recorder report runs/downtown-20261124-101500/run.sqlite
            (ribcity stress and launch --record start it as the run's recorder role)
            """,
        subcommands: [Record.self, Import.self, Report.self]
    )
}

/// `ribcity-recorder record --bus ENDPOINT --database FILE`: the recorder role.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Subscribe to the bus and record it until interrupted.")

    @Option(help: "The bus's subscriber endpoint (the coordinator's XPUB).")
    var bus: String

    @Option(help: "The SQLite database to write (created if new).")
    var database: String

    @Option(help: "The bus's publisher endpoint, where the recorder says it is ready (none: it does not say).")
    var publishTo: String?

    @Option(help: "Facts to note in the run table, as KEY=VALUE (repeatable).")
    var fact: [String] = []

    func run() async throws {
        // A log file, under the coordinator: each line as printed (the ready line above all).
        lineBufferStandardOutput()
        let recorder = try openRecorder(database)
        try await recorder.describe(try facts(fact))
        try await Transport.using(name: "recorder-io") { transport in
            // In a run with keys: a CURVE client of the coordinator's bus.
            try await RunKeys.secure(transport, as: "recorder", servers: RunKeys.servers(sessions: [], bus: [bus, publishTo]))
            let subscriber = try await transport.socket(.sub, options: .eventBus)
            try await subscriber.connect(bus)
            for prefix in [Topic.dispatch, Topic.status] { try await subscriber.subscribe(prefix) }
            let stop = AsyncStream<Void>.makeStream()
            let signals = await onInterrupt { stop.continuation.yield() }
            print("recorder pid \(getpid()) ready: \(bus) into \(database)")
            var readiness: ReadinessAnnouncer?
            if let publishTo {
                readiness = try await ReadinessAnnouncer(role: .recorder, processID: "recorder", bus: publishTo, on: transport)
            }
            let recording = Task {
                var failures = 0
                for try await batch in subscriber.batches() {
                    do {
                        try await recorder.record(batch.compactMap { try? Frames.Published(frames: $0.frames).envelope })
                    } catch {
                        // A batch that cannot be written is lost, said and counted; the recording goes on.
                        failures += 1
                        print("recorder: a batch of \(batch.count) envelopes not recorded (\(failures) so far): \(error)")
                    }
                }
            }
            for await _ in stop.stream { break }
            // What is still on its way through the bus gets a moment to arrive.
            try await Task.sleep(for: .milliseconds(500))
            recording.cancel()
            _ = try? await recording.value
            signals.forEach { $0.cancel() }
            readiness?.stop()
            print("recorder stopped: \(await recorder.recorded) envelopes recorded, \(await recorder.repeats) repeats left out")
        }
    }
}

/// `ribcity-recorder import events.pb --database FILE`: a recording made by the coordinator.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Record a run's events.pb into SQLite.")

    @Argument(help: "A recording (events.pb in a run directory).")
    var recording: String

    @Option(help: "The SQLite database to write (created if new).")
    var database: String

    func run() async throws {
        let envelopes: [Envelope]
        let truncated: Bool
        do {
            (envelopes, truncated) = try EventLog.read(path: recording)
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(65)
        }
        let recorder = try openRecorder(database)
        for start in stride(from: 0, to: envelopes.count, by: 5_000) {
            try await recorder.record(Array(envelopes[start..<min(envelopes.count, start + 5_000)]))
        }
        let (recorded, repeats, already) = (await recorder.recorded, await recorder.repeats, await recorder.alreadyThere)
        if recorded == 0 && already > 0 {
            print("\(database) has this recording already: nothing inserted (\(already) envelopes were there)")
        } else {
            print(
                "\(recorded) envelopes recorded into \(database), \(repeats) repeats left out"
                    + (already > 0 ? ", \(already) already there" : ""))
        }
        if truncated {
            FileHandle.standardError.write(
                Data(
                    ("Error: \(recording) is cut short: \(envelopes.count) records read before the cut (recorded above); "
                        + "the last record is incomplete\n").utf8))
            throw ExitCode(65)
        }
    }
}

/// `ribcity-recorder report FILE`: per-minute KPIs and how trips ended, straight from SQL.
struct Report: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a recorded run's per-minute KPIs and trip outcomes.")

    @Argument(help: "A run.sqlite.")
    var database: String

    func run() async throws {
        guard FileManager.default.fileExists(atPath: database) else { throw ValidationError("\(database): no such file") }
        let recorder = try openRecorder(database)
        for (title, sql) in RunReport.queries {
            print(title)
            print(RunReport.table(try await recorder.query(sql)))
        }
    }
}

/// Parses KEY=VALUE facts.
func facts(_ entries: [String]) throws -> [String: String] {
    var facts: [String: String] = [:]
    for entry in entries {
        guard let equals = entry.firstIndex(of: "=") else { throw ValidationError("--fact \(entry): expected KEY=VALUE") }
        facts[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
    }
    return facts
}

/// The recorder on `path`; a file it cannot use is bad input: its name and SQLite's reason, exit 65.
func openRecorder(_ path: String) throws -> RunRecorder {
    do {
        return try RunRecorder(path: path)
    } catch {
        FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
        throw ExitCode(65)
    }
}
