import Testing
import Topology
import Wire

@testable import Coordinator

@Suite("Processes on other hosts: who joins when, which start counts, who went quiet")
struct RemoteMembersTests {
    private let start = ContinuousClock.now
    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int64(seconds * 1_000)) }

    private func members() -> RemoteMembers {
        RemoteMembers(
            .init(
                hosts: ["drivers-1": Topology.Host(name: "fleet", address: "10.0.0.2")], topologyCRC: 0xABCD,
                silence: .seconds(10)))
    }

    private func request(_ name: String = "drivers-1", incarnation: UInt64, crc: UInt32 = 0xABCD) -> JoinRequest {
        JoinRequest.with {
            $0.processID = name
            $0.pid = 40
            $0.machine = "fleet-1"
            $0.incarnation = incarnation
            $0.topologyCrc = crc
        }
    }

    private func answers(_ actions: [RemoteMembers.Action]) -> [JoinReply] {
        actions.compactMap { if case .answer(let reply) = $0 { reply } else { nil } }
    }

    private func exits(_ actions: [RemoteMembers.Action]) -> [Supervisor.Exit] {
        actions.compactMap { if case .exited(let exit) = $0 { exit } else { nil } }
    }

    private func ready(life: UInt32) -> Ready {
        Ready.with {
            $0.processID = "drivers-1"
            $0.life = life
        }
    }

    @Test("A start waits until the run comes to it, then joins with the arguments and life 1; asking again gets the same answer")
    func joinsInTurn() throws {
        var members = members()
        let early = answers(members.join(request(incarnation: 7), now: at(0)))
        #expect(early.count == 1 && !early[0].accepted && early[0].refusal.isEmpty && early[0].waitingFor.contains("drivers-1"))
        members.expect("drivers-1", arguments: ["drivers", "--process", "1"])
        let joined = answers(members.join(request(incarnation: 7), now: at(1)))
        #expect(
            joined.count == 1 && joined[0].accepted && joined[0].life == 1
                && joined[0].arguments == ["drivers", "--process", "1"])
        #expect(members.current("drivers-1")?.pid == 40 && !members.isReady("drivers-1"))
        #expect(answers(members.join(request(incarnation: 7), now: at(1.5))) == joined, "a lost answer is given again")
        _ = members.heard(ready(life: 1), now: at(2))
        #expect(members.isReady("drivers-1"))
    }

    @Test("Refused for good: a process the run does not expect from another host, or another topology file")
    func refusals() {
        var members = members()
        members.expect("drivers-1", arguments: [])
        let stranger = answers(members.join(request("riders-0", incarnation: 1), now: at(0)))
        #expect(stranger.first?.refusal == "riders-0 is not a process this run expects from another host (those are: drivers-1)")
        let otherFile = answers(members.join(request(incarnation: 2, crc: 0x1234), now: at(0)))
        #expect(
            otherFile.first?.refusal.contains(
                "the topology file differs from the coordinator's (CRC-32 0x1234 here, 0xabcd there)") == true)
        #expect(members.current("drivers-1") == nil)
    }

    @Test("A new start of a running process means the old one died: its exit is recorded and the new start waits for the restart")
    func startedAgainOnItsHost() {
        var members = members()
        members.expect("drivers-1", arguments: ["a"])
        _ = members.join(request(incarnation: 1), now: at(0))
        let again = members.join(request(incarnation: 2), now: at(5))
        #expect(exits(again).map(\.reason) == ["started again on its host"])
        #expect(again.contains(.stopStale(name: "drivers-1", life: 1)), "the old start is stopped, should it still run")
        #expect(exits(again).first?.isClean == false)
        #expect(answers(again).first?.accepted == false && members.current("drivers-1") == nil)
        members.expect("drivers-1", arguments: ["a", "--after", "300"])
        let restarted = answers(members.join(request(incarnation: 2), now: at(6)))
        #expect(restarted.first?.accepted == true && restarted.first?.life == 2 && restarted.first?.arguments.last == "300")
    }

    @Test("Silent longer than allowed: given up for dead; heard again before another start, it is back")
    func silenceAndReturn() {
        var members = members()
        members.expect("drivers-1", arguments: [])
        _ = members.join(request(incarnation: 1), now: at(0))
        _ = members.heard(ready(life: 1), now: at(1))
        #expect(members.check(now: at(10)).isEmpty, "9 s of silence is allowed")
        let lost = exits(members.check(now: at(11.5)))
        #expect(lost.count == 1 && lost[0].lostFor == 10.5 && !lost[0].isClean)
        #expect(lost[0].description == "went silent for 11 s")
        #expect(members.current("drivers-1") == nil)
        members.expect("drivers-1", arguments: ["--after", "1"])
        let back = members.heard(ready(life: 1), now: at(14))
        #expect(back == [.log("drivers-1 is back after 13 s of silence (life 1)")])
        #expect(members.current("drivers-1")?.life == 1)
        // Another start of it asks: the one that came back is taken for dead, and stopped should it still run.
        let another = members.join(request(incarnation: 3), now: at(15))
        #expect(answers(another).first?.accepted == false, "no restart is expected any more")
        #expect(another.contains(.stopStale(name: "drivers-1", life: 1)))
    }

    @Test("A start given up for dead and replaced by a newer one is stopped, should it only have been cut off")
    func lostAndReplaced() {
        var members = members()
        members.expect("drivers-1", arguments: [])
        _ = members.join(request(incarnation: 1), now: at(0))
        #expect(exits(members.check(now: at(12))).count == 1)
        members.expect("drivers-1", arguments: [])
        let replaced = members.join(request(incarnation: 2), now: at(13))
        #expect(replaced.contains(.stopStale(name: "drivers-1", life: 1)))
        #expect(answers(replaced).first?.accepted == true && answers(replaced).first?.life == 2)
        #expect(members.heard(ready(life: 1), now: at(14)).isEmpty, "the old start's word changes nothing any more")
        #expect(members.current("drivers-1")?.life == 2)
    }

    @Test("A process that says it leaves, or is killed, is no longer running; a goodbye from an earlier life changes nothing")
    func leavingAndKilled() {
        var members = members()
        members.expect("drivers-1", arguments: [])
        _ = members.join(request(incarnation: 1), now: at(0))
        let stale = ProcessExit.with {
            $0.processID = "drivers-1"
            $0.life = 7
        }
        #expect(members.left(stale).isEmpty)
        let done = ProcessExit.with {
            $0.processID = "drivers-1"
            $0.life = 1
            $0.status = 0
        }
        #expect(exits(members.left(done)).first?.isClean == true)
        members.expect("drivers-1", arguments: [])
        _ = members.join(request(incarnation: 2), now: at(1))
        let killed = exits(members.killed("drivers-1", now: at(2)))
        #expect(killed.first?.signalled == true && killed.first?.status == 9)
        #expect(members.current("drivers-1") == nil)
    }

    @Test(
        "A killed start is told to stop again once a second, since its Stop may be lost, until a newer start joins; then never again"
    )
    func killedToldAgain() {
        var members = members()
        members.expect("drivers-1", arguments: [])
        _ = members.join(request(incarnation: 1), now: at(0))
        _ = members.killed("drivers-1", now: at(10))
        #expect(members.stopsDue(now: at(10.5)).isEmpty, "told at 10 s, with the kill")
        #expect(members.stopsDue(now: at(11)) == [.stopKilled(name: "drivers-1", life: 1)])
        #expect(members.stopsDue(now: at(11.9)).isEmpty)
        #expect(members.stopsDue(now: at(12.2)) == [.stopKilled(name: "drivers-1", life: 1)])
        #expect(members.killed("drivers-1", now: at(12.5)).isEmpty, "killed twice: nothing runs to kill")
        // Its host starts it again; a start that asks before the run comes to it changes nothing.
        _ = members.join(request(incarnation: 2), now: at(13))
        #expect(members.stopsDue(now: at(13.5)) == [.stopKilled(name: "drivers-1", life: 1)])
        members.expect("drivers-1", arguments: [])
        let joined = answers(members.join(request(incarnation: 2), now: at(14)))
        #expect(joined.first?.accepted == true && joined.first?.life == 2)
        #expect(members.stopsDue(now: at(20)).isEmpty)
        // The new start killed in turn: its own life is told, not the first's.
        _ = members.killed("drivers-1", now: at(21))
        #expect(members.stopsDue(now: at(22)) == [.stopKilled(name: "drivers-1", life: 2)])
    }
}
