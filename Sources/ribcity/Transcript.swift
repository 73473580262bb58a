import Foundation
import Wire

/// One process's lines in the demo transcript: who printed it, which way it went, what it was.
struct Transcript: Sendable {
    let process: String

    func sent(_ envelope: Envelope, to peer: String) {
        line("→ \(peer)", envelope)
    }

    func received(_ envelope: Envelope, from peer: String) {
        line("← \(peer)", envelope)
    }

    func note(_ text: String) {
        // Unbuffered, so that two processes' lines interleave in the order they happened.
        FileHandle.standardOutput.write(Data("[\(process)] \(text)\n".utf8))
    }

    private func line(_ direction: String, _ envelope: Envelope) {
        let padded = direction.padding(toLength: 14, withPad: " ", startingAt: 0)
        note("\(padded) #\(envelope.sequence) \(Self.describe(envelope))")
    }

    /// The body as compact protobuf text: `quoteRequest { rider_id: "rider-1" … }`.
    static func describe(_ envelope: Envelope) -> String {
        guard let body = envelope.body else { return "(no body)" }
        var copy = Envelope()
        copy.body = body
        let text = copy.textFormatString()
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
        return text.isEmpty ? envelope.bodyName : text
    }
}
