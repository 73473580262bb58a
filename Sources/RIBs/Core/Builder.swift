/// Makes a RIB: its component, interactor and router, wired.
///
/// A value holding what the parent provides: a router keeps the builders of the children it may
/// attach inline, with no allocation of their own (a rider app keeps nine). Conforming types add
/// their `build` methods, each with the arguments its RIB needs.
public protocol Builder {
    /// What the parent provides to every RIB this builder makes.
    associatedtype DependencyType
    /// What the parent provides to every RIB this builder makes.
    var dependency: DependencyType { get }
}
