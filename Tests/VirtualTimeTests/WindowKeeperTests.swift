import SimulatedTime
import Testing
import VirtualTime

private func ms(_ value: Int64) -> SimTime { SimTime(wireMilliseconds: value) }

@Suite("Virtual time: the keeper's windows, event by event")
struct WindowKeeperTests {
    let settings = WindowKeeper.Settings(latency: SimDuration(wireMilliseconds: 500))

    @Test("The first window opens once every participant has joined, at the start, one lookahead long")
    func firstWindow() {
        var keeper = WindowKeeper(participants: ["dispatch", "riders-1"], settings: settings)
        #expect(keeper.joined(ParticipantID("dispatch")).isEmpty)
        let actions = keeper.joined(ParticipantID("riders-1"))
        #expect(
            actions == [
                .open(
                    WindowOpening(
                        window: Window(index: 1, start: ms(0), end: ms(500)), expected: ["dispatch": [:], "riders-1": [:]],
                        incarnations: ["dispatch": 1, "riders-1": 1]))
            ])
    }

    @Test(
        "A rider or driver process with nothing due sits a window out (not sent it, not waited for); a delivery to it, its own timer or a new life brings it back"
    )
    func sittingOut() throws {
        let settings = WindowKeeper.Settings(latency: SimDuration(wireMilliseconds: 500), skippable: ["riders-0", "drivers-0"])
        var keeper = WindowKeeper(participants: ["dispatch", "riders-0", "drivers-0"], settings: settings)
        _ = keeper.joined(ParticipantID("dispatch"))
        _ = keeper.joined(ParticipantID("riders-0"))
        let first = try #require(keeper.joined(ParticipantID("drivers-0")).first)
        #expect(first == .open(try #require(keeper.current)) && keeper.current?.recipients == nil, "a new life does the window")
        // Window 1: dispatch sends to the rider, due at 1,200 ms; the driver's next timer is at 5 s.
        _ = keeper.reported(WindowReport(window: 1, participant: ParticipantID("riders-0"), next: nil))
        _ = keeper.reported(WindowReport(window: 1, participant: ParticipantID("drivers-0"), next: ms(5_000)))
        let second = keeper.reported(
            WindowReport(
                window: 1, participant: ParticipantID("dispatch"), sent: ["riders-0#1": 1], next: ms(1_000),
                deliveries: ["riders-0": ms(1_200)]))
        let opening = try #require(second.opened, "no window opened")
        #expect(opening.window == Window(index: 2, start: ms(1_000), end: ms(1_500)))
        #expect(opening.recipients == ["dispatch", "riders-0"], "the driver has nothing due before 1,500 ms")
        #expect(opening.addressees == ["dispatch", "riders-0"])
        #expect(keeper.waitingFor == ["dispatch", "riders-0"], "nor is it waited for")
        // The rider answers; what it sent is due at dispatch at 1,900 ms: dispatch's business, not
        // a reason to wake the rider, which has nothing of its own due.
        _ = keeper.reported(
            WindowReport(
                window: 2, participant: ParticipantID("riders-0"), sent: ["dispatch#1": 1], next: ms(1_900),
                deliveries: ["dispatch": ms(1_900)], own: nil))
        let third = keeper.reported(
            WindowReport(window: 2, participant: ParticipantID("dispatch"), sent: ["riders-0#1": 1], next: ms(4_900)))
        let answer = try #require(third.opened, "no window opened")
        #expect(answer.window == Window(index: 3, start: ms(1_900), end: ms(2_400)))
        #expect(answer.recipients == ["dispatch"], "neither host has anything of its own due")
        let fourth = keeper.reported(
            WindowReport(window: 3, participant: ParticipantID("dispatch"), sent: ["riders-0#1": 1], next: ms(4_900)))
        let next = try #require(fourth.opened, "no window opened")
        #expect(next.window == Window(index: 4, start: ms(4_900), end: ms(5_400)))
        #expect(next.recipients == ["dispatch", "drivers-0"], "its timer at 5 s brings the driver back; the rider sits out")
        #expect(next.expectations(of: "riders-0") == ["dispatch#1": 1], "what was sent to it stays expected")
        #expect(next.expectations(of: "dispatch") == ["riders-0#1": 1])
        #expect(keeper.statistics.satOut == ["drivers-0": 2, "riders-0": 2])
        // The rider's new life works through the window in progress.
        let again = try #require(keeper.joined(ParticipantID("riders-0", incarnation: 2)).opened, "the window was not sent again")
        #expect(again.recipients == ["dispatch", "drivers-0", "riders-0"])
        #expect(keeper.waitingFor == ["dispatch", "drivers-0", "riders-0"])
    }

    @Test("The next window waits for every report, carries what each must have received, and starts when someone next has work")
    func nextWindow() throws {
        var keeper = WindowKeeper(participants: ["dispatch", "riders-1"], settings: settings)
        _ = keeper.joined(ParticipantID("dispatch"))
        _ = keeper.joined(ParticipantID("riders-1"))
        let riders = WindowReport(window: 1, participant: ParticipantID("riders-1"), sent: ["dispatch#1": 3], next: ms(400 + 500))
        #expect(keeper.reported(riders).isEmpty)
        #expect(keeper.waitingFor == ["dispatch"])
        let dispatch = WindowReport(window: 1, participant: ParticipantID("dispatch"), received: [:], next: ms(7_000))
        let opening = try #require(keeper.reported(dispatch).opened, "no window opened")
        #expect(opening.window == Window(index: 2, start: ms(900), end: ms(1_400)))
        #expect(opening.expectations(of: "dispatch") == ["riders-1#1": 3])
        #expect(opening.expectations(of: "riders-1") == [:])
        #expect(keeper.statistics.waitedFor == ["dispatch": 1])
        #expect(keeper.statistics.skipped == SimDuration(wireMilliseconds: 400))
        #expect(keeper.statistics.pacedBy == ["riders-1": 1], "the riders' delivery at 900 ms opened window 2")
    }

    /// Found by a ThreadSanitizer run of the virtual chaos test across hosts: the run ended when
    /// the coordinator saw the last rider process exit, and wrote what had come by then, so a run
    /// slow to see the exit recorded more of the window in progress than a quick one.
    @Test(
        "The finishers' last reports end the run one lookahead after the window the last left in, whenever their exits are seen; no window waits for a finisher that left"
    )
    func finishersLeaveInTheirReports() {
        var keeper = WindowKeeper(
            participants: ["dispatch", "riders-0", "riders-1"],
            settings: .init(latency: settings.latency, finishers: ["riders-0", "riders-1"]))
        for name in ["dispatch", "riders-0", "riders-1"] { _ = keeper.joined(ParticipantID(name)) }
        let goodbye = WindowReport(
            window: 1, participant: ParticipantID("riders-0"), sent: ["dispatch#1": 1], next: nil, leaving: true)
        #expect(keeper.reported(goodbye).isEmpty)
        #expect(keeper.hasLeft("riders-0"))
        #expect(keeper.reported(WindowReport(window: 1, participant: ParticipantID("riders-1"), next: ms(2_000))).isEmpty)
        guard
            case .open(let second)? = keeper.reported(
                WindowReport(window: 1, participant: ParticipantID("dispatch"), next: ms(900))
            ).first
        else {
            Issue.record("no second window")
            return
        }
        #expect(second.expectations(of: "dispatch") == ["riders-0#1": 1], "what the leaver sent is still expected")
        #expect(second.expectations(of: "riders-0") == [:])
        #expect(keeper.left("riders-0").isEmpty, "its exit, seen later, changes nothing")
        // Its goodbye to dispatch, sent at 950 ms, is delivered at 1,450 ms.
        let last = WindowReport(
            window: 2, participant: ParticipantID("riders-1"), sent: ["dispatch#1": 1], next: ms(1_450), leaving: true)
        #expect(keeper.reported(last).isEmpty, "the window in progress still waits for dispatch")
        #expect(keeper.waitingFor == ["dispatch"])
        // The last window reaches one lookahead past the end of the one they left in: what they
        // sent there (a goodbye) is delivered and handled — the window opens at its delivery, the
        // leaver's last `next` — and no more.
        let third = WindowOpening(
            window: Window(index: 3, start: ms(1_450), end: ms(1_900)),
            expected: ["dispatch": ["riders-0#1": 1, "riders-1#1": 1]],
            incarnations: ["dispatch": 1, "riders-0": 0, "riders-1": 0])
        let dispatchDone = WindowReport(
            window: 2, participant: ParticipantID("dispatch"), received: ["riders-0#1": 1], next: ms(1_500))
        #expect(keeper.reported(dispatchDone) == [.open(third)])
        let dispatchAgain = WindowReport(
            window: 3, participant: ParticipantID("dispatch"), received: ["riders-0#1": 1], next: ms(1_600))
        #expect(keeper.reported(dispatchAgain) == [.finish(ms(1_900))], "dispatch still had work, but the finishers are gone")
        #expect(keeper.isFinished)
    }

    @Test("A finisher whose last report was lost counts as left when its exit is reported, and the run ends there")
    func finisherLeftWithoutItsReport() {
        var keeper = WindowKeeper(
            participants: ["dispatch", "riders-0"], settings: .init(latency: settings.latency, finishers: ["riders-0"]))
        _ = keeper.joined(ParticipantID("dispatch"))
        _ = keeper.joined(ParticipantID("riders-0"))
        #expect(keeper.reported(WindowReport(window: 1, participant: ParticipantID("dispatch"), next: ms(3_000))).isEmpty)
        #expect(keeper.left("riders-0") == [.finish(ms(1_000))], "dispatch's next event lies past the run's last window")
    }

    @Test("With nobody having anything to do the run is over; with an end, windows stop there")
    func finishing() {
        var keeper = WindowKeeper(participants: ["a"], settings: settings)
        _ = keeper.joined(ParticipantID("a"))
        #expect(keeper.reported(WindowReport(window: 1, participant: ParticipantID("a"), next: nil)) == [.finish(ms(500))])
        var bounded = WindowKeeper(participants: ["a"], settings: .init(latency: settings.latency, end: ms(1_200)))
        _ = bounded.joined(ParticipantID("a"))
        guard
            case .open(let second)? = bounded.reported(WindowReport(window: 1, participant: ParticipantID("a"), next: ms(1_000)))
                .first
        else {
            Issue.record("no second window")
            return
        }
        #expect(second.window.end == ms(1_200), "no window reaches past the run's end")
        #expect(
            bounded.reported(WindowReport(window: 2, participant: ParticipantID("a"), next: ms(5_000))) == [.finish(ms(1_200))])
    }

    @Test("A report from a dead life, for another window, or twice, changes nothing")
    func strayReports() {
        var keeper = WindowKeeper(participants: ["a", "b"], settings: settings)
        _ = keeper.joined(ParticipantID("a"))
        _ = keeper.joined(ParticipantID("b"))
        #expect(keeper.reported(WindowReport(window: 1, participant: ParticipantID("a", incarnation: 0), next: nil)).isEmpty)
        #expect(keeper.reported(WindowReport(window: 7, participant: ParticipantID("a"), next: nil)).isEmpty)
        #expect(keeper.reported(WindowReport(window: 1, participant: ParticipantID("a"), next: nil)).isEmpty)
        #expect(keeper.reported(WindowReport(window: 1, participant: ParticipantID("a"), next: nil)).isEmpty)
        #expect(keeper.waitingFor == ["b"])
    }

    @Test("A planned kill drains the network first, then kills, waits for the next life and opens the window it missed")
    func plannedKill() throws {
        var keeper = WindowKeeper(participants: ["dispatch", "riders-1"], settings: settings)
        keeper.planKill(of: "dispatch", at: ms(2_000))
        _ = keeper.joined(ParticipantID("dispatch"))
        _ = keeper.joined(ParticipantID("riders-1"))
        _ = keeper.reported(
            WindowReport(window: 1, participant: ParticipantID("dispatch"), sent: ["riders-1#1": 2], next: ms(5_000)))
        guard
            case .open(let drain)? = keeper.reported(
                WindowReport(window: 1, participant: ParticipantID("riders-1"), sent: ["dispatch#1": 1], next: ms(3_000))
            ).first
        else {
            Issue.record("no drain")
            return
        }
        #expect(drain.purpose == .drain && drain.window.start == ms(2_000))
        #expect(drain.expectations(of: "riders-1") == ["dispatch#1": 2])
        _ = keeper.reported(WindowReport(window: drain.window.index, participant: ParticipantID("riders-1"), next: ms(3_000)))
        let kill = keeper.reported(
            WindowReport(window: drain.window.index, participant: ParticipantID("dispatch"), next: ms(5_000)))
        #expect(kill == [.kill("dispatch")])
        #expect(keeper.current?.window == drain.window, "nothing opens while dispatch is down")
        let next = try #require(keeper.joined(ParticipantID("dispatch", incarnation: 2)).opened, "no window after the restart")
        #expect(next.purpose == .advance && next.window.start == ms(2_000), "the new life starts where the old one stopped")
        #expect(next.incarnations["dispatch"] == 2)
        #expect(next.expectations(of: "dispatch") == [:], "what was sent to the old life is not expected by the new")
        #expect(keeper.statistics.crashes.isEmpty && keeper.statistics.drains == 1)
    }

    @Test("A life that comes back on its own mid-window gets the window again; its dead life's lost messages are not waited for")
    func crashMidWindow() throws {
        var keeper = WindowKeeper(participants: ["a", "b"], settings: settings)
        _ = keeper.joined(ParticipantID("a"))
        _ = keeper.joined(ParticipantID("b"))
        _ = keeper.reported(WindowReport(window: 1, participant: ParticipantID("a"), sent: ["b#1": 5], next: ms(600)))
        _ = keeper.reported(WindowReport(window: 1, participant: ParticipantID("b"), next: ms(600)))
        // b received 3 of a's 5 by the time a crashed mid-window 2; a's new life comes back.
        _ = keeper.reported(WindowReport(window: 2, participant: ParticipantID("b"), received: ["a#1": 3], next: ms(1_200)))
        let again = try #require(keeper.joined(ParticipantID("a", incarnation: 2)).opened, "the window was not sent again")
        #expect(again.window.index == 2 && again.incarnations["a"] == 2)
        #expect(again.expectations(of: "b") == ["a#1": 3], "capped at what b had: the rest died with a's first life")
        #expect(keeper.waitingFor == ["a"])
        #expect(keeper.statistics.crashes == ["a": 1])
        // a's new life got a message due before what it had handled: late, in the statistics; a
        // second report of a window already reported adds nothing.
        _ = keeper.reported(
            WindowReport(window: 2, participant: ParticipantID("a", incarnation: 2), next: ms(1_200), late: 1))
        #expect(keeper.statistics.late == ["a": 1])
        _ = keeper.reported(WindowReport(window: 2, participant: ParticipantID("b"), next: ms(1_200), late: 2))
        #expect(keeper.statistics.late == ["a": 1])
    }

    @Test("A participant that leaves for good is no longer waited for")
    func leaving() throws {
        var keeper = WindowKeeper(participants: ["dispatch", "riders-0"], settings: settings)
        _ = keeper.joined(ParticipantID("dispatch"))
        _ = keeper.joined(ParticipantID("riders-0"))
        #expect(keeper.reported(WindowReport(window: 1, participant: ParticipantID("dispatch"), next: ms(900))).isEmpty)
        let next = try #require(keeper.left("riders-0").opened, "the window waited for a participant that left")
        #expect(next.window.start == ms(900) && next.expected["riders-0"] == nil)
        #expect(keeper.joined(ParticipantID("riders-0", incarnation: 2)).isEmpty, "gone for good")
    }
}

extension [WindowKeeper.Action] {
    /// The window opened, if that is the first of these actions.
    fileprivate var opened: WindowOpening? {
        guard case .open(let opening)? = first else { return nil }
        return opening
    }
}
