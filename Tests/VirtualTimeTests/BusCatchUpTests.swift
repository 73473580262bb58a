import Testing
import VirtualTime

@Suite("Virtual time: what waits for the bus to catch up with the window link")
struct BusCatchUpTests {
    let dispatch = ParticipantID("dispatch")

    @Test("A deed asked for after a report waits for that report's copy on the bus; with none outstanding it is done at once")
    func waitsForTheCopy() {
        var catchUp = BusCatchUp<String>()
        #expect(catchUp.after("write before 0.5 s") == ["write before 0.5 s"], "nothing reported: nothing to wait for")
        catchUp.reportedDirectly(dispatch, window: 1)
        #expect(catchUp.after("write before 1 s").isEmpty)
        #expect(catchUp.isWaiting)
        #expect(catchUp.seenOnBus(dispatch, window: 1) == ["write before 1 s"])
        #expect(!catchUp.isWaiting)
    }

    @Test("Deeds come out in the order asked for, each when the copies it waits for are in, even if the bus is a window behind")
    func inOrder() {
        var catchUp = BusCatchUp<String>()
        let shard = ParticipantID("dispatch-1")
        catchUp.reportedDirectly(dispatch, window: 1)
        catchUp.reportedDirectly(shard, window: 1)
        #expect(catchUp.after("write 1").isEmpty)
        catchUp.reportedDirectly(dispatch, window: 2)
        catchUp.reportedDirectly(shard, window: 2)
        #expect(catchUp.after("kill drivers-0").isEmpty)
        #expect(catchUp.seenOnBus(shard, window: 2).isEmpty, "dispatch's copies are not in yet")
        #expect(catchUp.seenOnBus(dispatch, window: 1) == ["write 1"], "the first needs window 1's copies only")
        #expect(catchUp.seenOnBus(dispatch, window: 2) == ["kill drivers-0"])
    }

    @Test("A copy on the bus before its report on the link counts: the deed after the report does not wait")
    func copyFirst() {
        var catchUp = BusCatchUp<String>()
        #expect(catchUp.seenOnBus(dispatch, window: 3).isEmpty)
        catchUp.reportedDirectly(dispatch, window: 3)
        #expect(catchUp.after("write 3") == ["write 3"])
    }

    @Test("A life that died does not publish its copy: its next life frees what waited for it")
    func newLifeFrees() {
        var catchUp = BusCatchUp<String>()
        catchUp.reportedDirectly(dispatch, window: 4)
        #expect(catchUp.after("kill dispatch").isEmpty)
        #expect(catchUp.lifeBegan(ParticipantID("drivers-0", incarnation: 2)).isEmpty, "another's life changes nothing")
        #expect(catchUp.lifeBegan(ParticipantID("dispatch", incarnation: 2)) == ["kill dispatch"])
        #expect(catchUp.after("write 5") == ["write 5"], "the dead life is no longer waited for")
    }

    @Test("Giving up on a lost copy frees the first deed and those behind it that wait for nothing more")
    func giveUp() {
        var catchUp = BusCatchUp<String>()
        catchUp.reportedDirectly(dispatch, window: 6)
        #expect(catchUp.after("write 6").isEmpty)
        #expect(catchUp.after("finish").isEmpty)
        #expect(catchUp.giveUp() == ["write 6"], "the second still waits: the first's needs were given up, not its own")
        #expect(catchUp.giveUp() == ["finish"])
        #expect(catchUp.giveUp().isEmpty)
    }
}
