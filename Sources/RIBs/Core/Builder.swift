/// Makes a RIB: its component, interactor and router, wired.
open class Builder<DependencyType> {
    /// What the parent provides to every RIB this builder makes.
    public let dependency: DependencyType

    /// A builder for RIBs whose parent provides `dependency`.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }
}
