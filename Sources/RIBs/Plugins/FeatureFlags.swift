/// Which optional features are on. Core code never depends on a flag; optional code is plugged
/// in under one, and is switched off automatically when it fails.
public final class FeatureFlags {
    /// The master switch: off disables all optional code at once.
    public var optionalCodeEnabled: Bool
    private var flags: [String: Bool]
    /// Features switched off because they failed, with the reason.
    public private(set) var switchedOff: [String: String] = [:]
    /// Made for the first observer.
    private var switchOffs: ModelStream<(name: String, reason: String)?>?

    /// Flags by feature name (absent means off), under the master switch.
    public init(_ flags: [String: Bool] = [:], optionalCodeEnabled: Bool = true) {
        self.flags = flags
        self.optionalCodeEnabled = optionalCodeEnabled
    }

    /// Whether optional code under `name` may run: the master switch is on, the flag is on, and
    /// the feature has not failed.
    public func isEnabled(_ name: String) -> Bool {
        optionalCodeEnabled && flags[name, default: false] && switchedOff[name] == nil
    }

    /// Turns a flag on or off (a failed feature stays off).
    public func set(_ name: String, enabled: Bool) {
        flags[name] = enabled
    }

    /// Switches a failed feature off and tells observers. Only the first failure is reported.
    public func switchOff(_ name: String, reason: String) {
        guard switchedOff[name] == nil else { return }
        switchedOff[name] = reason
        switchOffs?.send((name, reason))
    }

    /// Calls `handler` for every feature switched off from now on, so that the RIB that hosts it
    /// can detach it.
    public func observeSwitchOffs(_ handler: @escaping (_ name: String, _ reason: String) -> Void) -> Subscription {
        let switchOffs = self.switchOffs ?? ModelStream<(name: String, reason: String)?>(nil)
        self.switchOffs = switchOffs
        return switchOffs.observe { event in
            if let event { handler(event.name, event.reason) }
        }
    }
}
