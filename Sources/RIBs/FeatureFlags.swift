/// Which optional features are on. Core code never depends on a flag; optional code is plugged
/// in under one, and is switched off automatically when it fails.
public final class FeatureFlags {
    /// The master switch: off disables all optional code at once.
    public var optionalCodeEnabled: Bool
    private var flags: [String: Bool]
    /// Features switched off because they failed, with the reason.
    public private(set) var switchedOff: [String: String] = [:]
    private let switchOffs = ModelStream<(name: String, reason: String)?>(nil)

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
        switchOffs.send((name, reason))
    }

    /// Calls `handler` for every feature switched off from now on, so that the RIB that hosts it
    /// can detach it.
    public func observeSwitchOffs(_ handler: @escaping (_ name: String, _ reason: String) -> Void) -> Subscription {
        switchOffs.observe { event in
            if let event { handler(event.name, event.reason) }
        }
    }
}

/// A named piece of optional code that makes something (a child RIB, a worker) for a context,
/// or `nil` when it does not apply.
public struct Plugin<Context, Output> {
    /// The feature flag it runs under.
    public let name: String
    let make: (Context) throws -> Output?

    /// A plugin under the flag `name`; `make` may throw, which switches the feature off.
    public init(name: String, make: @escaping (Context) throws -> Output?) {
        self.name = name
        self.make = make
    }
}

/// A place in core code where optional plugins are plugged in.
///
/// Core code asks for ``outputs(for:)`` and uses what comes back; a plugin that throws is switched
/// off and reported through the flags, and the others (and the core flow) go on.
public final class PluginPoint<Context, Output> {
    /// The flags that decide which plugins run, and record which failed.
    public let flags: FeatureFlags
    private var plugins: [Plugin<Context, Output>] = []

    /// An empty plugin point governed by `flags`.
    public init(flags: FeatureFlags) {
        self.flags = flags
    }

    /// Adds a plugin; plugins run in registration order.
    public func register(_ plugin: Plugin<Context, Output>) {
        plugins.append(plugin)
    }

    /// What every enabled plugin makes for `context`, in registration order.
    public func outputs(for context: Context) -> [(name: String, output: Output)] {
        plugins.compactMap { plugin in
            guard flags.isEnabled(plugin.name) else { return nil }
            do {
                return try plugin.make(context).map { (plugin.name, $0) }
            } catch {
                flags.switchOff(plugin.name, reason: "\(error)")
                return nil
            }
        }
    }

    /// For plugged-in code that finds itself broken after it was made.
    public func reportFailure(of name: String, reason: String) {
        flags.switchOff(name, reason: reason)
    }
}
