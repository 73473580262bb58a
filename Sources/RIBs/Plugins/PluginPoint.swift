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
