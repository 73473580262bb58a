import Testing

@testable import RIBs

@Suite("Components, builders and the example app")
struct ComponentTests {
    final class Thing {}

    final class ThingComponent: Component<EmptyDependency> {
        var shared: Thing { shared { Thing() } }
        var fresh: Thing { Thing() }
    }

    @Test("shared {} makes one instance per component")
    func sharedScoping() {
        let component = ThingComponent(dependency: EmptyDependency())
        #expect(component.shared === component.shared)
        #expect(component.fresh !== component.fresh)
        let other = ThingComponent(dependency: EmptyDependency())
        #expect(other.shared !== component.shared)
    }

    @Test("Model streams call observers in order and stop when cancelled")
    func modelStream() {
        let stream = ModelStream("a")
        var first: [String] = []
        var second: [String] = []
        let one = stream.observe { first.append($0) }
        let two = stream.observe { second.append($0) }
        stream.send("b")
        one.cancel()
        stream.sendIfChanged("b")
        stream.sendIfChanged("c")
        #expect(first == ["a", "b"])
        #expect(second == ["a", "b", "c"])
        _ = two
    }

    @Test("The example app routes by business logic: listener upward, stream downward")
    func exampleApp() throws {
        let root = RootBuilder(dependency: EmptyDependency()).build()
        root.launch()
        #expect(root.interactor.routed == ["loggedOut"])
        let loggedOut = try #require(root.current as? LoggedOutRouter)
        #expect(loggedOut.interactable.isActive)

        loggedOut.interactor.signInTapped(name: "Ada")
        let loggedIn = try #require(root.current as? LoggedInRouter)
        #expect(root.children.count == 1)
        #expect(!loggedOut.interactable.isActive, "the detached RIB is deactivated")
        #expect(loggedIn.interactor.greeting == "Hello, Ada")

        root.interactor.auth.signOut()
        #expect(root.current is LoggedOutRouter)
        #expect(!loggedIn.interactable.isActive)
        #expect(root.interactor.routed == ["loggedOut", "loggedIn", "loggedOut"])
    }
}
