import Testing

@testable import RIBs

@Suite("Work scoped to the active period")
struct ScopedWorkTests {
    @Test("A subscription bound to the active period ends on deactivation")
    func subscriptionEnds() {
        let stream = ModelStream(0)
        let interactor = RecordingInteractor()
        interactor.activate()
        var seen: [Int] = []
        interactor.bindToActivePeriod(stream.observe { seen.append($0) })
        stream.send(1)
        interactor.deactivate()
        stream.send(2)
        #expect(seen == [0, 1])
        #expect(stream.observerCount == 0)
        interactor.bindToActivePeriod(stream.observe { seen.append($0) })
        #expect(stream.observerCount == 0, "binding while inactive cancels at once")
    }

    @Test("A task started while active is cancelled on deactivation")
    func taskCancelled() async {
        let interactor = RecordingInteractor()
        #expect(interactor.task {} == nil, "no task while inactive")
        interactor.activate()
        let started = AsyncStream<Void>.makeStream()
        let task = interactor.task {
            started.continuation.yield()
            while !Task.isCancelled { await Task.yield() }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        #expect(task?.isCancelled == false)
        interactor.deactivate()
        #expect(task?.isCancelled == true)
        await task?.value
    }

    @Test("A whole tree lives on one actor, its tasks running there")
    func treeOnAnActor() async {
        actor App {
            let root = RootBuilder(dependency: EmptyDependency()).build()
            var log: [String] = []

            func start() -> [String] {
                root.launch()
                let interactor = root.interactor
                interactor.task { [self] in
                    self.assertIsolated()
                    self.record("task ran on the app actor")
                }
                return interactor.routed
            }

            func record(_ line: String) { log.append(line) }
            func lines() -> [String] { log }
        }
        let app = App()
        #expect(await app.start() == ["loggedOut"])
        while await app.lines().isEmpty { await Task.yield() }
        #expect(await app.lines() == ["task ran on the app actor"])
    }
}
