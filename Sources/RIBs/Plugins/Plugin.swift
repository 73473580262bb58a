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
