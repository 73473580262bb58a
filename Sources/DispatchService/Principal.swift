import Wire

/// Who a session acts as: the process it belongs to (which owns a share of the city) and that
/// process's role. Over CURVE both come from the key the connection proved it holds; without it,
/// from what the Hello claims.
struct Principal: Equatable, Codable {
    let role: Role
    let process: String

    /// Whether it is a riders or drivers host: a process that lives once at a time, so that a new
    /// session of it ends the ones before (tools may hold several).
    var isHost: Bool { role == .riders || role == .drivers }

    init(role: Role, process: String) {
        self.role = role
        self.process = process
    }

    /// The principal of a Hello. `authenticated` is the name the connection's CURVE key was issued
    /// to (ZAP's User-Id), if any: then the Hello may not claim another process or role.
    init(_ hello: Hello, authenticated: String?) throws(DeskFailure) {
        guard let name = authenticated else {
            role = hello.role
            // A tool that names no process is a principal of its own.
            process = hello.process.isEmpty ? hello.sessionID : hello.process
            return
        }
        guard hello.process.isEmpty || hello.process == name else {
            throw DeskFailure(
                code: .forbidden, reason: "this connection's key was issued to \(name), not to \(hello.process)")
        }
        let keyRole = WireIDs.role(ofProcess: name)
        guard hello.role == .unspecified || hello.role == keyRole else {
            throw DeskFailure(
                code: .forbidden, reason: "this connection's key was issued to a \(keyRole) process, not a \(hello.role) one")
        }
        role = keyRole
        process = name
    }
}
