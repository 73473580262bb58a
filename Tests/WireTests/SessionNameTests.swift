import Testing
import Wire

@Suite("Virtual-time session names: a process and its life, there and back")
struct SessionNameTests {
    @Test("A session names its process and life; the first life has no suffix")
    func roundTrip() {
        for (process, life) in [("drivers-0", UInt32(1)), ("riders-12", 2), ("dispatch-3", 41), ("drivers-0", 4_000_000_000)] {
            let session = WireIDs.session(ofProcess: process, life: life)
            #expect(WireIDs.process(ofSession: session) == process)
            #expect(WireIDs.life(ofSession: session) == life)
        }
        #expect(WireIDs.session(ofProcess: "riders-1", life: 1) == "riders-1")
        #expect(WireIDs.session(ofProcess: "riders-1", life: 3) == "riders-1.3")
    }

    @Test("A malformed life reads as the first; the process is what comes before the first dot")
    func malformed() {
        #expect(WireIDs.life(ofSession: "riders-1.") == 1)
        #expect(WireIDs.life(ofSession: "riders-1.x") == 1)
        #expect(WireIDs.life(ofSession: "riders-1.99999999999") == 1, "past UInt32")
        #expect(WireIDs.life(ofSession: "") == 1)
        #expect(WireIDs.process(ofSession: "") == "")
        #expect(WireIDs.process(ofSession: ".2") == "")
        #expect(WireIDs.process(ofSession: "a.b.c") == "a")
        #expect(WireIDs.process(ofSession: "Åsa.2") == "Åsa")
        #expect(WireIDs.life(ofSession: "Åsa.2") == 2)
    }
}
