import ZeroMQ

/// What a restart of dispatch costs on a real journal, against the baseline of replaying it
/// whole: the newest snapshot beside it decoded and the entries after it replayed, what taking
/// and writing a snapshot of that state costs, and whether both ways end in the same state.
public enum RecoveryBenchmark {
    public struct Report: Sendable {
        public var entries = 0
        public var journalBytes = 0
        public var readSeconds = 0.0
        /// The baseline: every entry replayed from a fresh dispatch.
        public var fullReplaySeconds = 0.0
        public var snapshot: String?
        public var snapshotBytes = 0
        public var snapshotEntries = 0
        /// Reading, checking and decoding the snapshot, and putting a fresh dispatch in its state.
        public var restoreSeconds = 0.0
        public var tailEntries = 0
        public var tailReplaySeconds = 0.0
        /// Taking the state (on dispatch's actor) and encoding it with its checksum (off it).
        public var takeSeconds = 0.0
        public var encodeSeconds = 0.0
        /// The messages the entries after the snapshot produce (framed, as if live).
        public var tailMessages = 0
        /// Both ways send the same messages for the entries after the snapshot, and end with the
        /// same desk, stamps and counts.
        public var identical = false
        /// What differs when not identical, in words.
        public var differences: [String] = []
        /// The snapshot's biggest parts: name, bytes, encoding and decoding seconds.
        public var parts: [(name: String, bytes: Int, encode: Double, decode: Double)] = []
    }

    /// Measures the journal at `path` of dispatch process `process` ("dispatch", or a shard's
    /// "dispatch-K": its senders' names); `makeDesk` makes a desk of the run's topology.
    public static func measure(
        journal path: String, process: String = "dispatch", makeDesk: () -> DispatchDesk
    ) throws -> Report {
        var report = Report()
        let clock = ContinuousClock()
        func seconds(_ body: () throws -> Void) rethrows -> Double { try clock.measure(body) / .seconds(1) }

        var contents: DispatchJournal.Contents?
        report.readSeconds = try seconds { contents = try DispatchJournal.read(path: path) }
        guard let contents, contents.count > 0 else { throw SnapshotError("\(path): no journal entries") }
        report.entries = contents.count
        report.journalBytes = contents.validBytes

        let fast = DispatchCore(desk: makeDesk(), process: process)
        var start = DispatchJournal.magic.count
        report.restoreSeconds = seconds {
            let newest = SnapshotStore(journalPath: path).newest(for: contents)
            guard let (snapshot, file) = newest.found else { return }
            fast.restore(snapshot)
            start = snapshot.journalBytes
            report.snapshot = file
            report.snapshotEntries = snapshot.journalEntries
        }
        if let file = report.snapshot {
            report.snapshotBytes = (try? SnapshotStore.fileSize(file)) ?? 0
        }
        // Framed, as the live path sends them (a restart only stamps them: this is an upper bound).
        var sentFast: [Message] = []
        report.tailReplaySeconds = try seconds { sentFast = try replay(contents, from: start, on: fast, framing: true) }

        // The baseline, which is also the reference: the whole journal replayed from a fresh
        // dispatch, the entries after the snapshot framed to compare with the restart's.
        let whole = DispatchCore(desk: makeDesk(), process: process)
        var sentReference: [Message] = []
        report.fullReplaySeconds = try seconds {
            var index = 0
            try contents.forEachEntry { entry in
                var out = Outbox()
                out.replaying = index < report.snapshotEntries
                whole.apply(entry, into: &out)
                sentReference += out.routed + out.refusals + out.published
                index += 1
            }
        }
        report.tailMessages = sentFast.count
        report.tailEntries = report.entries - report.snapshotEntries

        var taken: DispatchSnapshot?
        report.takeSeconds = seconds {
            taken = whole.snapshot(
                journalOrigin: 0, journalEntries: contents.count, journalBytes: contents.validBytes, time: 0)
        }
        if let taken {
            // As the live path encodes: with the last snapshot's size (here the one restored) as a hint.
            report.encodeSeconds = try seconds { _ = try SnapshotStore.fileBytes(of: taken, sizeHint: report.snapshotBytes) }
            let desk = taken.desk
            func part<T: Codable>(_ name: String, _ value: T) throws {
                var bytes: [UInt8] = []
                let encode = try seconds { bytes = try CompactEncoder.encode(value) }
                let decode = try seconds { _ = try CompactDecoder.decode(T.self, from: bytes[...]) }
                report.parts.append((name, bytes.count, encode, decode))
            }
            for (name, value) in desk.engine.parts { try part("engine: " + name, value) }
            try part("checker", desk.checker)
            try part("odometers", desk.odometers)
            try part("sessions", desk.sessions)
            try part("request names", desk.requests)
            try part("driver names", desk.drivers)
            try part("rider lines", desk.riderLines)
            try part("driver lines", desk.driverLines)
            try part("remembered replies", desk.memory)
            try part("offers", desk.offers)
            try part("leg checks", desk.legChecks)
            try part("last bus events", taken.stampers.recentEvents)
            report.parts.sort { $0.bytes > $1.bytes }
        }

        if sentFast != sentReference {
            let first =
                zip(sentFast, sentReference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(sentFast.count, sentReference.count)
            report.differences.append(
                "messages: \(sentFast.count) from the snapshot, \(sentReference.count) from the whole journal; "
                    + "the first difference at message \(first)")
        }
        let (wholeState, fastState) = (whole.desk.snapshot(), fast.desk.snapshot())
        if wholeState != fastState {
            let first = zip(wholeState, fastState).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            report.differences.append(
                "end state: \(fastState.count) drivers and open requests from the snapshot, \(wholeState.count) from the whole journal"
                    + (first.map {
                        "; the first difference: \(fastState[$0].textFormatString()) against \(wholeState[$0].textFormatString())"
                    }
                        ?? ""))
        }
        if whole.stampers.events.lastSequence != fast.stampers.events.lastSequence
            || whole.stampers.replies.lastSequence != fast.stampers.replies.lastSequence
        {
            report.differences.append("sequence numbers of the bus's events or of the replies")
        }
        if whole.malformed != fast.malformed { report.differences.append("malformed frames counted") }
        if whole.desk.checker.violations != fast.desk.checker.violations { report.differences.append("the checker's violations") }
        report.identical = report.differences.isEmpty
        return report
    }

    @discardableResult
    private static func replay(
        _ contents: DispatchJournal.Contents, from offset: Int, on core: DispatchCore, framing: Bool = false
    ) throws -> [Message] {
        var sent: [Message] = []
        try contents.forEachEntry(from: offset) { entry in
            var out = Outbox()
            out.replaying = !framing
            core.apply(entry, into: &out)
            sent += out.routed + out.refusals + out.published
        }
        return sent
    }
}
