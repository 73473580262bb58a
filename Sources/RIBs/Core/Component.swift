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
