/// A builder that makes a fresh component for every RIB it builds, and passes dynamic
/// dependencies (values known only at build time, like the rider a trip is for) to both the
/// component and the build.
///
/// The reference's `ComponentizedBuilder`. Reusing one component for two RIBs would make their
/// `shared { }` instances one and the same, so the component builder must return a new instance
/// every time; ``build(componentDependency:buildDependency:)`` checks it.
open class ComponentizedBuilder<ComponentType: AnyObject, RouterType, BuildDependency, ComponentDependency> {
    private let componentBuilder: (ComponentDependency) -> ComponentType
    private weak var lastComponent: ComponentType?

    /// - Parameter componentBuilder: makes a new component from the dynamic component dependency.
    public init(componentBuilder: @escaping (ComponentDependency) -> ComponentType) {
        self.componentBuilder = componentBuilder
    }

    /// Builds a RIB with a new component.
    /// - Returns: `nil` if the component builder returned the component of a previous build (a
    ///   wiring bug: the two RIBs would share their `shared { }` instances). That stops a debug
    ///   build, as RIBs-iOS asserts; a release build refuses the build.
    public final func build(componentDependency: ComponentDependency, buildDependency: BuildDependency) -> RouterType? {
        let component = componentBuilder(componentDependency)
        if let lastComponent, lastComponent === component {
            assertionFailure("\(Self.self): the component builder returned the component of the previous build")
            return nil
        }
        lastComponent = component
        return build(with: component, buildDependency)
    }

    /// Makes the RIB from its new component. Subclasses override this.
    open func build(with component: ComponentType, _ buildDependency: BuildDependency) -> RouterType? {
        nil
    }
}

/// A componentized builder without dynamic dependencies.
open class SimpleComponentizedBuilder<ComponentType: AnyObject, RouterType>:
    ComponentizedBuilder<ComponentType, RouterType, Void, Void>
{
    /// - Parameter componentBuilder: makes a new component for each build.
    public init(componentBuilder: @escaping () -> ComponentType) {
        super.init { _ in componentBuilder() }
    }

    /// Builds a RIB with a new component.
    public final func build() -> RouterType? {
        build(componentDependency: (), buildDependency: ())
    }
}
