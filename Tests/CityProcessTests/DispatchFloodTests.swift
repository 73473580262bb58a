import Foundation
import TestSupport
import Testing
import ZeroMQ

/// A real dispatch process under a flood of garbage from peers that never read a reply.
@Suite("Dispatch under a flood of garbage", .serialized)
struct DispatchFloodTests {
    /// Peak resident memory of a process (VmHWM), in bytes.
    private func peakMemory(of pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    @Test(
        "Thousands of garbage frames, half of them 1 MiB and a few over the size limit, from four connections: dispatch journals a few bytes each, and holds at most its 32 MiB buffer and libzmq's 100 messages per connection"
    )
    func floodIsBounded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ribcity-flood-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let topology = directory.appendingPathComponent("city.yaml")
        try """
        name: flood
        city: { grid: { width_m: 2000, height_m: 2000, block_m: 250, speed_kmh: 36 } }
        clock: { speed: 60, duration: 10m }
        drivers: { processes: 1, per_process: 4 }
        riders: { processes: 1, demand: { synthetic: { peak_per_hour: 60 } } }
        """.write(to: topology, atomically: true, encoding: .utf8)
        let sessions = "ipc://\(directory.path)/sessions", journal = directory.appendingPathComponent("dispatch.journal")
        let output = directory.appendingPathComponent("dispatch.log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let dispatch = Process()
        dispatch.executableURL = URL(fileURLWithPath: ribcityBinary!)
        dispatch.arguments = [
            "dispatch", "--topology", topology.path, "--sessions", sessions, "--bus", "ipc://\(directory.path)/bus",
            "--journal", journal.path,
        ]
        dispatch.standardOutput = try FileHandle(forWritingTo: output)
        dispatch.standardError = dispatch.standardOutput
        try ChildProcess.run(dispatch)
        defer { if dispatch.isRunning { dispatch.terminate() } }
        let log = { @Sendable in (try? String(contentsOf: output, encoding: .utf8)) ?? "" }
        try await within(60, "dispatch ready") {
            while !log().contains(" ready: ") { try await Task.sleep(for: .milliseconds(50)) }
        }
        let before = peakMemory(of: dispatch.processIdentifier)

        let transport = try Transport(name: "flood")
        var peers: [Socket] = []
        for _ in 0..<4 { peers.append(try await transport.socket(.dealer)) }
        for peer in peers { try await peer.connect(sessions) }
        let oversized = try await transport.socket(.dealer)
        try await oversized.connect(sessions)
        // Dispatch answers every garbage frame MALFORMED; the answers are read as they come.
        let replies = ReplyCount()
        let readers = peers.map { peer in
            Task { for try await batch in peer.batches() { await replies.add(batch.count) } }
        }
        var random = SplitMix(seed: 11)
        let frames = 8_000, mebibyte = [UInt8](repeating: 0xA5, count: 1 << 20)
        for index in 0..<frames {
            let message: Message =
                switch index % 4 {
                case 0, 2: Message(mebibyte)
                case 1: Message([[0x0A, 0xFF, 0xFF, 0xFF]])  // a field that claims more bytes than follow
                default: Message((0..<64).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                }
            try await peers[index % peers.count].send(message)
            // Over dispatch's maximum message size, from a connection of its own: it is cut at the
            // header (and comes back by itself), and the frame is never read.
            if index % 2_000 == 1 { try await oversized.send(Message([UInt8](repeating: 0, count: 8 << 20))) }
        }
        // Dispatch has handled the flood once every frame is answered (or, should an answer be
        // dropped on a full queue, once they stop coming).
        // (Patient: under ThreadSanitizer, beside other suites, dispatch may pause for seconds.)
        try await within(150, "the flood handled") {
            var last = -1, quiet = 0
            while await replies.count < frames, quiet < 40 {
                let now = await replies.count
                quiet = now == last ? quiet + 1 : 0
                last = now
                try await Task.sleep(for: .milliseconds(500))
            }
        }
        let grown = peakMemory(of: dispatch.processIdentifier) - before
        readers.forEach { $0.cancel() }
        await transport.shutdown()
        dispatch.interrupt()
        try await within(30, "dispatch exits") { while dispatch.isRunning { try await Task.sleep(for: .milliseconds(50)) } }
        // Whatever share of the flood dispatch read before it stopped, each frame cost the journal a few bytes.
        let malformed = Int(log().components(separatedBy: "dispatch stopped: ").last?.prefix { $0 != " " } ?? "") ?? 0
        #expect(malformed >= frames / 4, "the flood reached dispatch: \(log())")
        let size = (try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int) ?? 0
        #expect(size < 64 * malformed + 64 << 10, "journal of \(size) bytes for \(malformed) garbage frames")
        // 32 MiB of dispatch's own buffer, and 100 messages of 1 MiB per connection in libzmq.
        let bound = (32 << 20) + peers.count * 100 * (1 << 20) + (64 << 20)
        #expect(grown < bound, "dispatch's peak memory grew by \(grown >> 20) MiB")
    }
}

private actor ReplyCount {
    private(set) var count = 0
    func add(_ more: Int) { count += more }
}
