import Dispatch
import Foundation

/// Runs `handler` on SIGINT or SIGTERM instead of dying, so a role can stop cleanly; cancel the
/// returned sources when done.
public func onInterrupt(_ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
    [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number)
        source.setEventHandler(handler: handler)
        source.resume()
        return source
    }
}
