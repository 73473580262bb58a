import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging

/// The web monitor's HTTP side: the page, the map, the live frames over a WebSocket, the current
/// state and the metrics.
///
/// - `/` the page; `/map.json` the streets and zones; `/state.json` the whole current frame;
/// - `/rib/ID` the live RIB tree of the app of rider or driver ID, from the host that runs it;
/// - `/live` a WebSocket: a full frame, then a frame of what changed as soon as something does
///   (at most one per 5 ms by default: changes in between go out together, see ``FramePacer``);
/// - `/metrics` Prometheus's text format.
public enum WebServer {
    /// A page whose socket has not taken a frame for this long is dropped.
    public static let stalledAfter = Duration.seconds(5)

    /// The application serving `hub` on `host`:`port` (0: any free port; `onServerRunning`
    /// hears the one chosen).
    public static func application(
        hub: WebHub, host: String = "127.0.0.1", port: Int, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("/") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: WebPage.html)))
        }
        router.get("/map.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: hub.mapJSON)))
        }
        router.get("/info.json") { _, _ in
            let data = (try? JSONEncoder().encode(Info(title: hub.title, startSecondOfDay: hub.startSecondOfDay))) ?? Data()
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data)))
        }
        router.get("/state.json") { _, _ in
            let data = (try? JSONEncoder().encode(await hub.frame(since: 0))) ?? Data()
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data)))
        }
        router.get("/rib/:app") { _, context in
            let id = context.parameters.get("app") ?? ""
            guard let answer = await hub.inspect(id) else {
                return Response(
                    status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(
                        byteBuffer: ByteBuffer(
                            string: "no process runs an app \(id) now (a rider's app lives while its ride does)")))
            }
            let quoted = { (text: String) in
                String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
            }
            let json =
                #"{"app":"# + quoted(answer.appID) + #","process":"# + quoted(answer.processID) + #","leaks":"#
                + "\(answer.leaks)" + #","tree":"# + String(decoding: answer.treeJson, as: UTF8.self) + "}"
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: json)))
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: await hub.scrape())))
        }
        let sockets = Router(context: BasicWebSocketRequestContext.self)
        sockets.ws("/live") { _, _ in
            .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The page sends nothing we need; its closing ends the connection.
                group.addTask { for try await _ in inbound {} }
                group.addTask {
                    await hub.page(connected: true)
                    defer { Task { await hub.page(connected: false) } }
                    var tick: UInt64?
                    while let frames = await hub.nextFrames(after: tick) {
                        for frame in frames {
                            try await withDeadline(stalledAfter) { try await outbound.write(.text(frame.json)) }
                            tick = frame.tick
                        }
                    }
                }
                try await group.next()
                group.cancelAll()
            }
        }
        var logger = Logger(label: "ribcity-web")
        logger.logLevel = .warning
        return Application(
            router: router, server: .http1WebSocketUpgrade(webSocketRouter: sockets),
            configuration: .init(address: .hostname(host, port: port), serverName: "ribcity-web"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) }, logger: logger)
    }

    /// Runs `body`, failing if it takes longer than `limit` (a stalled page's write).
    static func withDeadline(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: limit)
                throw StalledPage()
            }
            try await group.next()
            group.cancelAll()
        }
    }

    struct StalledPage: Error {}

    /// What the page shows in its title, and where its clock starts.
    struct Info: Codable {
        var title: String
        var startSecondOfDay: Double
    }
}
