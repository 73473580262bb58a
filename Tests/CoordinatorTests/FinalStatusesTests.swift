import Testing
import Wire

@testable import Coordinator

@Suite("The end of a run: waiting for each stopped process's final status, not a fixed while")
struct FinalStatusesTests {
    private func status(_ name: String, final: Bool) -> Envelope {
        let status = ProcessStatus.with {
            $0.processID = name
            $0.final = final
        }
        var stamper = SequenceStamper(sender: "\(name)-status")
        return Envelope(.processStatus(status), from: stamper.next())
    }

    @Test("The wait ends as the last final status comes, long before its bound; a periodic status does not count")
    func endsOnArrival() async {
        let finals = FinalStatuses()
        await finals.note([status("dispatch", final: true), status("riders-0", final: false)])
        let waiting = Task { await finals.wait(for: ["dispatch", "riders-0"], atMost: .seconds(600)) }
        await finals.note([status("riders-0", final: false)])
        await finals.note([status("riders-0", final: true)])
        let missing = await waiting.value
        #expect(missing.isEmpty)
    }

    @Test("A process that never says its last word is waited for only as long as the bound, and named")
    func boundedWait() async {
        let finals = FinalStatuses()
        await finals.note([status("dispatch", final: true)])
        let missing = await finals.wait(for: ["dispatch", "drivers-0"], atMost: .milliseconds(20))
        #expect(missing == ["drivers-0"])
        #expect(await finals.wait(for: ["dispatch"], atMost: .seconds(600)).isEmpty, "what came is not waited for")
    }

    @Test("Two waits for the same processes: one's bound running out does not end the other's")
    func separateWaits() async throws {
        let finals = FinalStatuses()
        let ended = Ended()
        let long = Task {
            let missing = await finals.wait(for: ["drivers-0"], atMost: .seconds(600))
            await ended.mark()
            return missing
        }
        #expect(await finals.wait(for: ["drivers-0"], atMost: .milliseconds(20)) == ["drivers-0"])
        try await Task.sleep(for: .milliseconds(50))
        #expect(await !ended.isMarked, "the long wait still waits once the short one has given up")
        await finals.note([status("drivers-0", final: true)])
        #expect(await long.value.isEmpty, "and ends when the status comes")
    }
}

extension FinalStatuses {
    /// What the coordinator's bus reader does with a batch.
    fileprivate func note(_ envelopes: [Envelope]) {
        let finished = Self.finished(in: envelopes)
        if !finished.isEmpty { note(finished: finished) }
    }
}

/// Whether a task has got past a point.
private actor Ended {
    private(set) var isMarked = false
    func mark() { isMarked = true }
}
