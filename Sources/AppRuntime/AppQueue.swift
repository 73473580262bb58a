/// An actor that lends its executor to apps run outside a host (tests, benchmarks): the apps
/// given one run one at a time on it, as the apps of a host run on the host's executor.
public actor AppQueue {
    public init() {}
}
