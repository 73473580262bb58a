import Foundation
import Wire
import ZeroMQ

extension AppHost {
    /// Answers a monitor's request for one app's live RIB tree, if this host runs the app: on the
    /// bus, under `inspect.reply.<process id>`. Reads the app, changes nothing (in virtual time it
    /// is outside every window).
    public func inspect(_ request: InspectApp) async {
        guard let bus, let app = live[request.appID] else { return }
        let tree = await app.tree()
        let leaks = await app.health().leaks
        let answer = AppInspection.with {
            $0.appID = request.appID
            $0.request = request.request
            $0.processID = processID
            $0.treeJson = (try? JSONEncoder().encode(tree)) ?? Data()
            $0.leaks = UInt32(clamping: leaks)
        }
        let envelope = Envelope(.appInspection(answer), from: inspectionStamper.next())
        try? await bus.send(Message(Frames.Published(topic: Topic.inspectReply(of: processID), envelope: envelope).frames))
    }

    /// Answers every inspection request published on the bus (`sub` subscribed to
    /// `inspect.request`) until cancelled.
    public func answerInspections(from sub: Socket) async throws {
        for try await batch in sub.batches() {
            for message in batch {
                guard let published = try? Frames.Published(frames: message.frames),
                    case .inspectApp(let request)? = published.envelope.body
                else { continue }
                await inspect(request)
            }
        }
    }
}
