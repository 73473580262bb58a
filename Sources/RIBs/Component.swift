/// The dependencies a RIB needs from its parent: a protocol per RIB, implemented by the parent's component.
public protocol Dependency: AnyObject {}

/// The dependency of the root: nothing.
public final class EmptyDependency: Dependency {
    /// The root's dependency: nothing.
    public init() {}
}

/// Owns and creates a RIB's dependencies, and hands them to its interactor and children.
///
/// ``shared(_:_:)`` makes one instance per component (per RIB instance), the reference's
/// `shared {}` scoping; anything else made by a component is new on each access.
open class Component<DependencyType>: Dependency {
    /// What the parent provides.
    public let dependency: DependencyType
    private var sharedInstances: [String: Any] = [:]

    /// A component over what the parent provides.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }

    /// The one instance of this property for this component, made by `factory` on first use.
    public final func shared<T>(_ key: String = #function, _ factory: () -> T) -> T {
        if let instance = sharedInstances[key] as? T { return instance }
        let instance = factory()
        sharedInstances[key] = instance
        return instance
    }
}

/// Makes a RIB: its component, interactor and router, wired.
open class Builder<DependencyType> {
    /// What the parent provides to every RIB this builder makes.
    public let dependency: DependencyType

    /// A builder for RIBs whose parent provides `dependency`.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }
}
