import Dispatch
import Foundation

/// Runs `handler` on SIGINT or SIGTERM instead of dying, so a role can stop cleanly; cancel the
/// returned sources when done.
///
/// Returns once a signal is sure to reach `handler`. libdispatch installs its own handler for a
/// signal on its manager thread, some time after the source is resumed; until then the process
/// ignores the signal (so that it does not end it), and a signal sent meanwhile is lost — a role
/// told to stop as soon as it said it was ready ran on (a loaded machine widens that gap to
/// milliseconds). A second call in the same process leaves libdispatch's handler in place: it is
/// installed once per process and signal, and setting the signal ignored again would drop every
/// later one.
public func onInterrupt(_ handler: @escaping @Sendable () -> Void) async -> [any DispatchSourceSignal] {
    let numbers = [SIGINT, SIGTERM]
    let sources = numbers.map { number in
        if SignalDisposition(of: number) == .byDefault { signal(number, SIG_IGN) }
        let source = DispatchSource.makeSignalSource(signal: number)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
    // Microseconds on an idle machine; the bound only keeps a broken libdispatch from hanging a role.
    let deadline = ContinuousClock.now + .seconds(10)
    while numbers.contains(where: { SignalDisposition(of: $0) != .handled }), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(1))
    }
    return sources
}

/// What the process does with a signal now (`sigaction`'s view).
enum SignalDisposition: Equatable {
    case byDefault, ignored, handled

    init(of number: Int32) {
        var action = sigaction()
        sigaction(number, nil, &action)
        // SIG_DFL and SIG_IGN are the handler values 0 and 1 on Linux.
        switch action.__sigaction_handler.sa_handler.map({ unsafeBitCast($0, to: Int.self) }) ?? 0 {
        case 0: self = .byDefault
        case 1: self = .ignored
        default: self = .handled
        }
    }
}
