import Testing

@testable import RIBs

final class TripComponent: Component<EmptyDependency> {
    let riderID: String
    init(riderID: String) {
        self.riderID = riderID
        super.init(dependency: EmptyDependency())
    }
    var fare: ModelStream<Int> { shared { ModelStream(0) } }
}

final class TripRouter: Router<RecordingInteractor> {
    let component: TripComponent
    let product: String
    init(component: TripComponent, product: String) {
        self.component = component
        self.product = product
        super.init(interactor: RecordingInteractor())
    }
}

final class TripBuilder: ComponentizedBuilder<TripComponent, TripRouter, String, String> {
    override func build(with component: TripComponent, _ product: String) -> TripRouter? {
        TripRouter(component: component, product: product)
    }
}

@Suite("Componentized builders")
struct ComponentizedBuilderTests {
    @Test("Every build gets a new component, with its dynamic dependencies")
    func freshComponents() throws {
        let builder = TripBuilder { riderID in TripComponent(riderID: riderID) }
        let first = try #require(builder.build(componentDependency: "rider-1", buildDependency: "POOL"))
        let second = try #require(builder.build(componentDependency: "rider-2", buildDependency: "uberX"))
        #expect(first.component !== second.component)
        #expect(first.component.fare !== second.component.fare, "shared {} is per component")
        #expect(first.component.riderID == "rider-1" && second.product == "uberX")
    }

    @Test("A component builder that hands out the same component twice stops a debug build")
    func reusedComponent() async {
        await #expect(processExitsWith: .failure) {
            let only = TripComponent(riderID: "rider-1")
            let builder = TripBuilder { _ in only }
            _ = builder.build(componentDependency: "", buildDependency: "POOL")
            _ = builder.build(componentDependency: "", buildDependency: "POOL")
        }
    }

    @Test("A simple componentized builder needs no dynamic dependencies")
    func simple() {
        final class Made {}
        final class MadeBuilder: SimpleComponentizedBuilder<TripComponent, Made> {
            override func build(with component: TripComponent, _: Void) -> Made? { Made() }
        }
        let builder = MadeBuilder { TripComponent(riderID: "x") }
        #expect(builder.build() != nil)
        #expect(builder.build() != nil)
    }
}
