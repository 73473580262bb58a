import Foundation
import TestSupport
import Testing

/// `ribcity demo` runs the real dispatch: the ride it shows is priced, offered, driven and
/// completed by the engine, not by a stand-in.
@Suite("ribcity demo: a rider process and the real dispatch")
struct DemoProcessTests {
    @Test(
        "The demo's ride is quoted by the engine, offered to the scripted driver, driven leg by leg and completed; the malformed frame is counted"
    )
    func demoRide() async throws {
        let transcript = try await within(60) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ribcityBinary!)
            process.arguments = ["demo"]
            let pipe = ChildProcess.pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try ChildProcess.run(process)
            // Read on a thread of its own: blocking one of the two threads that run every suite's
            // tasks starved the others under ThreadSanitizer (a session waiting that long expired).
            return await withCheckedContinuation { (done: CheckedContinuation<(String, Int32), Never>) in
                Thread {
                    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    process.waitUntilExit()
                    done.resume(returning: (output, process.terminationStatus))
                }.start()
            }
        }
        let (output, status) = transcript
        #expect(status == 0, "\(output)")
        #expect(output.contains("← drivers-demo") && output.contains("accept_offer { offer_id: \"offer-1\""), "\(output)")
        #expect(output.contains("leg_done { driver_id: \"driver-42\" leg: 2 }"), "\(output)")
        let lines = output.split(separator: "\n")
        #expect(
            lines.contains { $0.hasPrefix("[riders") && $0.contains("TRIP_STATE_COMPLETED") && $0.contains("fare_cents: ") },
            "\(output)")
        #expect(lines.contains { $0.contains("DISPATCH_EVENT_KIND_TRIP_COMPLETED") }, "the bus carried the completion: \(output)")
        #expect(output.contains("dropped a malformed frame") && output.contains("1 malformed dropped"), "\(output)")
    }
}
