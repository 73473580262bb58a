import Testing

@testable import ZeroMQ

@Suite("A turn's reads in one buffer: messages that share their batch's frames")
struct ReceivedBatchTests {
    private func read(_ frames: [[UInt8]], into batch: inout ReceivedBatch, userID: String? = nil) {
        batch.open()
        for frame in frames { frame.withUnsafeBytes { batch.appendFrame($0) } }
        batch.close(userID: userID)
    }

    @Test("Messages read frame by frame come out in order, with their frames, sizes and senders, sharing one block")
    func framedMessagesShareABlock() {
        var batch = ReceivedBatch()
        let sent: [[[UInt8]]] = [[[1, 2, 3]], [[], [4], [5, 6]], [Array(repeating: 7, count: 10_000)], [[8]]]
        for (index, frames) in sent.enumerated() { read(frames, into: &batch, userID: index == 1 ? "rider-7" : nil) }
        #expect(batch.count == 4 && batch.byteCount == 10_007)
        let messages = batch.take()
        #expect(messages.map(\.frames) == sent)
        #expect(messages.map(\.frameCount) == [1, 3, 1, 1])
        #expect(messages.map(\.byteCount) == [3, 3, 10_000, 1])
        #expect(messages.map(\.userID) == [nil, "rider-7", nil, nil])
        #expect(messages.allSatisfy { $0.isShared })
        #expect(messages[1].first == [] && messages[1].rest == [[4], [5, 6]] && messages[1].frame(2) == [5, 6])
        #expect(messages[1].withFrame(2) { Array($0) } == [5, 6])
        #expect(batch.count == 0 && batch.byteCount == 0 && batch.take().isEmpty, "emptied for the next turn")
    }

    @Test("A turn of one message gives it frames of its own, so that keeping it keeps no block alive")
    func aLoneMessageOwnsItsFrames() {
        var batch = ReceivedBatch()
        read([[1], [2, 3]], into: &batch, userID: "driver-1")
        let messages = batch.take()
        #expect(
            messages == [
                {
                    var m = Message([[1], [2, 3]]); m.userID = "driver-1"; return m
                }()
            ])
        #expect(!messages[0].isShared)
    }

    @Test("Whole messages and framed ones keep the order they were read in")
    func wholeAndFramedInterleave() {
        var batch = ReceivedBatch()
        read([[1]], into: &batch)
        batch.append(Message([[2], [3]]))
        read([[4, 4]], into: &batch)
        batch.append(Message([5]))
        #expect(batch.byteCount == 6)
        #expect(batch.take().map(\.frames) == [[[1]], [[2], [3]], [[4, 4]], [[5]]])
    }

    @Test("A turn of whole messages only hands them on as they came, counting their bytes only when asked")
    func wholeMessagesOnly() {
        var batch = ReceivedBatch()
        batch.append(Message([[1], [2, 3]]))
        batch.append(Message([4]))
        #expect(batch.byteCount == 4)
        #expect(batch.take() == [Message([[1], [2, 3]]), Message([4])])
        batch.countsWholeBytes = false
        batch.append(Message([5, 6]))
        #expect(batch.byteCount == 0 && batch.count == 1)
        #expect(batch.take() == [Message([5, 6])] && batch.count == 0)
    }

    @Test("A message abandoned part-way leaves the ones before it whole and takes its bytes back")
    func abandonedMessageLeavesNoTrace() {
        var batch = ReceivedBatch()
        read([[1, 2]], into: &batch)
        batch.open()
        [UInt8](repeating: 9, count: 5_000).withUnsafeBytes { batch.appendFrame($0) }
        batch.abandon()
        #expect(batch.count == 1 && batch.byteCount == 2)
        read([[3], [4]], into: &batch)
        #expect(batch.take().map(\.frames) == [[[1, 2]], [[3], [4]]])
    }

    @Test("A shared message equals and hashes as the same frames owned; changing a frame makes it own them all")
    func sharedEqualsOwned() {
        var batch = ReceivedBatch()
        read([[1], [2, 3]], into: &batch)
        read([[4]], into: &batch)
        var shared = batch.take()[0]
        let owned = Message([[1], [2, 3]])
        #expect(shared == owned && shared.hashValue == owned.hashValue && Set([shared, owned]).count == 1)
        #expect(shared != Message([[1], [2, 4]]) && shared != Message([[1, 2, 3]]))
        shared.rest.append([5])
        #expect(!shared.isShared && shared.frames == [[1], [2, 3], [5]])
        shared.first = [0]
        #expect(shared.frames == [[0], [2, 3], [5]])
    }
}
