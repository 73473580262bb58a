import Testing

@testable import RIBs

struct PluginBroke: Error, CustomStringConvertible {
    var description: String { "feed service unavailable" }
}

final class PromotionsRouter: Router<RecordingInteractor> {}

@Suite("Plugins, feature flags and workflows")
struct PluginAndWorkflowTests {
    static func point(_ flags: FeatureFlags) -> PluginPoint<String, any Routing> {
        let point = PluginPoint<String, any Routing>(flags: flags)
        point.register(Plugin(name: "promotions") { _ in PromotionsRouter(interactor: RecordingInteractor()) })
        point.register(Plugin(name: "feed") { _ in throw PluginBroke() })
        point.register(Plugin(name: "menu") { _ in node() })
        point.register(Plugin(name: "share-eta") { rider in rider == "vip" ? node() : nil })
        return point
    }

    @Test("A plugin that throws is switched off and reported; the others and the core go on")
    func failingPlugin() {
        let flags = FeatureFlags(["promotions": true, "feed": true, "menu": false, "share-eta": true])
        var reported: [String] = []
        let subscription = flags.observeSwitchOffs { name, reason in reported.append("\(name): \(reason)") }
        let point = Self.point(flags)

        #expect(point.outputs(for: "rider").map(\.name) == ["promotions"])
        #expect(point.outputs(for: "vip").map(\.name) == ["promotions", "share-eta"])
        #expect(reported == ["feed: feed service unavailable"], "reported once, not on every use")
        #expect(!flags.isEnabled("feed"))
        flags.set("feed", enabled: true)
        #expect(!flags.isEnabled("feed"), "a failed feature stays off")
        _ = subscription
    }

    @Test("The master switch disables all optional code at once")
    func masterSwitch() {
        let flags = FeatureFlags(["promotions": true, "share-eta": true], optionalCodeEnabled: false)
        #expect(Self.point(flags).outputs(for: "vip").isEmpty)
        flags.optionalCodeEnabled = true
        #expect(Self.point(flags).outputs(for: "vip").count == 2)
    }

    @Test("Plugged-in RIBs that report failure later are detached; the core RIB stays")
    func detachFailedPluginRIB() {
        let flags = FeatureFlags(["promotions": true])
        let point = Self.point(flags)
        let host = node()
        host.interactable.activate()
        host.load()
        var plugged: [String: any Routing] = [:]
        for (name, router) in point.outputs(for: "rider") {
            plugged[name] = router
            host.attachChild(router)
        }
        let subscription = flags.observeSwitchOffs { name, _ in
            if let router = plugged.removeValue(forKey: name) { host.detachChild(router) }
        }
        #expect(host.children.count == 1)
        point.reportFailure(of: "promotions", reason: "rendered garbage")
        #expect(host.children.isEmpty)
        #expect(host.interactable.isActive, "the core flow goes on")
        #expect(flags.switchedOff["promotions"] == "rendered garbage")
        _ = subscription
    }

    @Test("A workflow waits for each RIB to be active before acting on it")
    func workflowWaitsForActivation() async throws {
        actor App {
            let root = RootBuilder(dependency: EmptyDependency()).build()
            var log: [String] = []

            /// The deep link "sign in as Ada and open the home screen".
            func openHome() async throws -> String {
                log.append("link started")
                let workflow = Workflow<RootInteractor, RootInteractor>()
                    .onStep { [root, self] (rootInteractor: RootInteractor) -> LoggedOutInteractor in
                        self.assertIsolated()
                        self.record("first step, root active: \(rootInteractor.isActive)")
                        guard let loggedOut = root.current as? LoggedOutRouter else { throw PluginBroke() }
                        return loggedOut.interactor
                    }
                    .onStep { [root] (loggedOut: LoggedOutInteractor) -> LoggedInInteractor in
                        loggedOut.signInTapped(name: "Ada")
                        guard let loggedIn = root.current as? LoggedInRouter else { throw PluginBroke() }
                        return loggedIn.interactor
                    }
                    .onStep { (loggedIn: LoggedInInteractor) in loggedIn.greeting }
                return try await workflow.run(on: root.interactor)
            }

            func launch() {
                log.append("launch")
                root.launch()
            }

            func record(_ line: String) { log.append(line) }
            func lines() -> [String] { log }
        }
        let app = App()
        let link = Task { try await app.openHome() }
        while await app.lines().isEmpty { await Task.yield() }
        await app.launch()
        #expect(try await link.value == "Hello, Ada")
        #expect(await app.lines() == ["link started", "launch", "first step, root active: true"])
    }
}
