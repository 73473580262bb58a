/// Who may publish what on the event bus. Over CURVE the bus knows which process's key sent each
/// message and forwards only what that process may say: dispatch's events come from dispatch, a
/// process's status and readiness from that process itself, window openings and chaos from the
/// coordinator. Everything else is refused (no process publishes it).
public enum BusPolicy {
    /// Why `publisher` (the name its key was issued to) may not publish the message `frames`
    /// (`[topic, envelope]`, as the bus's frontend receives it), or nil if it may.
    public static func refusal(publisher: String, frames: [UnsafeRawBufferPointer]) -> String? {
        guard frames.count == 2 else { return "\(frames.count) frames, not a bus message's 2 (topic, envelope)" }
        guard let topic = UTF8Text.validated(frames[0]), !topic.isEmpty else {
            return "a topic frame that is empty or not UTF-8"
        }
        return refusal(publisher: publisher, topic: topic) { try? WireCodec.decode(Array(frames[1])) }
    }

    /// Why `publisher` may not publish on `topic` the envelope `envelope` gives (decoded only
    /// for the few topics whose payload names its sender), or nil if it may.
    public static func refusal(publisher: String, topic: String, envelope: () -> Envelope?) -> String? {
        let role = WireIDs.role(ofProcess: publisher)
        if topic.hasPrefix(Topic.dispatch) {
            return role == .dispatch ? nil : "only dispatch publishes \(topic)"
        }
        if topic.hasPrefix(Topic.status) {
            guard topic == Topic.status(of: publisher) else {
                return "\(publisher) publishes its own status on \(Topic.status(of: publisher)), not on \(topic)"
            }
            guard case .processStatus(let status)? = envelope()?.body, status.processID == publisher else {
                return "\(topic) carries something other than \(publisher)'s own ProcessStatus"
            }
            return nil
        }
        if topic.hasPrefix(Topic.joinReply) || topic.hasPrefix(Topic.stop) {
            return role == .coordinator ? nil : "only the coordinator answers joins and stops processes (\(topic))"
        }
        if topic.hasPrefix(Topic.inspectReply) {
            guard topic == Topic.inspectReply(of: publisher), case .appInspection(let answer)? = envelope()?.body,
                answer.processID == publisher
            else { return "\(publisher) answers inspections on \(Topic.inspectReply(of: publisher)) only, about itself" }
            return nil
        }
        switch topic {
        case Topic.inspectRequest:
            return role == .monitor ? nil : "only a monitor asks for an app's RIB tree"
        case Topic.windowOpen:
            return role == .coordinator ? nil : "only the coordinator opens windows"
        case Topic.notice:
            return role == .coordinator ? nil : "only the coordinator publishes notices"
        case Topic.ready:
            guard case .ready(let ready)? = envelope()?.body, ready.processID == publisher else {
                return "\(topic) carries something other than \(publisher)'s own Ready"
            }
            return nil
        case Topic.joinRequest:
            guard case .joinRequest(let request)? = envelope()?.body, request.processID == publisher else {
                return "\(topic) carries something other than \(publisher)'s own JoinRequest"
            }
            return nil
        case Topic.exit:
            guard case .processExit(let exit)? = envelope()?.body, exit.processID == publisher else {
                return "\(topic) carries something other than \(publisher)'s own ProcessExit"
            }
            return nil
        case Topic.windowDone:
            return "window reports go to the keeper on the window link, not on the bus"
        default:
            if topic.hasPrefix(Topic.chaos) {
                return role == .coordinator ? nil : "only the coordinator's stress faults publish \(topic)"
            }
            return "no process publishes \(topic)"
        }
    }
}
