import Testing

@testable import Wire

@Suite("Who may publish what on the event bus")
struct BusPolicyTests {
    private func refusal(_ publisher: String, _ topic: String, _ body: Envelope.OneOf_Body) -> String? {
        let frames = Frames.Published(topic: topic, envelope: Envelope(body, from: SenderStamp(sender: "x", sequence: 1)))
            .frames
        return frames[0].withUnsafeBytes { topic in
            frames[1].withUnsafeBytes { envelope in BusPolicy.refusal(publisher: publisher, frames: [topic, envelope]) }
        }
    }

    private func status(_ process: String) -> Envelope.OneOf_Body {
        .processStatus(ProcessStatus.with { $0.processID = process })
    }

    @Test("Each process publishes what is its own: dispatch's events, its status, readiness and window reports")
    func ownPublications() {
        let event = Envelope.OneOf_Body.dispatchEvent(DispatchEvent.with { $0.kind = .requestCreated })
        #expect(refusal("dispatch", Topic.dispatchRequest, event) == nil)
        #expect(refusal("riders-0", Topic.status(of: "riders-0"), status("riders-0")) == nil)
        #expect(refusal("drivers-1", Topic.ready, .ready(Ready.with { $0.processID = "drivers-1" })) == nil)
        #expect(refusal("coordinator", Topic.windowOpen, .windowOpen(WindowOpen())) == nil)
        #expect(refusal("coordinator", Topic.chaos + "flood", .heartbeat(Heartbeat())) == nil)
    }

    @Test("What only another may publish is refused, with the reason")
    func othersPublications() {
        let event = Envelope.OneOf_Body.dispatchEvent(DispatchEvent.with { $0.kind = .requestCancelled })
        #expect(refusal("riders-0", Topic.dispatchRequest, event) == "only dispatch publishes dispatch.request")
        #expect(
            refusal("forger", Topic.status(of: "dispatch"), status("dispatch"))
                == "forger publishes its own status on status.forger, not on status.dispatch")
        #expect(
            refusal("forger", Topic.status(of: "forger"), status("dispatch"))
                == "status.forger carries something other than forger's own ProcessStatus")
        #expect(
            refusal("riders-0", Topic.ready, .ready(Ready.with { $0.processID = "dispatch" }))
                == "control.ready carries something other than riders-0's own Ready")
        #expect(
            refusal("dispatch", Topic.windowDone, .windowDone(WindowDone.with { $0.processID = "dispatch" }))
                == "window reports go to the keeper on the window link, not on the bus")
        #expect(refusal("dispatch", Topic.windowOpen, .windowOpen(WindowOpen())) == "only the coordinator opens windows")
        #expect(
            refusal("monitor", Topic.chaos + "flood", .heartbeat(Heartbeat()))
                == "only the coordinator's stress faults publish chaos.flood")
        #expect(refusal("dispatch", "location", .heartbeat(Heartbeat())) == "no process publishes location")
    }

    @Test("Joining from another host: a process asks and leaves for itself; only the coordinator answers and stops")
    func joining() {
        let ask = Envelope.OneOf_Body.joinRequest(JoinRequest.with { $0.processID = "drivers-1" })
        let leave = Envelope.OneOf_Body.processExit(ProcessExit.with { $0.processID = "drivers-1" })
        let answer = Envelope.OneOf_Body.joinReply(JoinReply.with { $0.processID = "drivers-1" })
        #expect(refusal("drivers-1", Topic.joinRequest, ask) == nil)
        #expect(refusal("drivers-1", Topic.exit, leave) == nil)
        #expect(refusal("coordinator", Topic.joinReply(to: "drivers-1"), answer) == nil)
        #expect(refusal("coordinator", Topic.stop(of: "drivers-1"), .stop(Stop())) == nil)
        #expect(
            refusal("riders-0", Topic.joinRequest, ask)
                == "control.join-request carries something other than riders-0's own JoinRequest")
        #expect(refusal("riders-0", Topic.exit, leave) == "control.exit carries something other than riders-0's own ProcessExit")
        #expect(
            refusal("drivers-1", Topic.joinReply(to: "drivers-1"), answer)
                == "only the coordinator answers joins and stops processes (control.join-reply.drivers-1)")
        #expect(
            refusal("dispatch", Topic.stop(of: "drivers-1"), .stop(Stop()))
                == "only the coordinator answers joins and stops processes (control.stop.drivers-1)")
    }

    @Test("A publication that is not [topic, envelope] is refused")
    func notABusMessage() {
        let one: [UInt8] = Array("dispatch.request".utf8)
        #expect(
            one.withUnsafeBytes { BusPolicy.refusal(publisher: "dispatch", frames: [$0]) }
                == "1 frames, not a bus message's 2 (topic, envelope)")
        let empty: [UInt8] = []
        #expect(
            empty.withUnsafeBytes { BusPolicy.refusal(publisher: "dispatch", frames: [$0, $0]) }
                == "a topic frame that is empty or not UTF-8")
    }
}
