/// The dependencies a RIB needs from its parent: a protocol per RIB, implemented by the parent's component.
public protocol Dependency: AnyObject {}

/// The dependency of the root: nothing.
public final class EmptyDependency: Dependency {
    /// The root's dependency: nothing.
    public init() {}
}
