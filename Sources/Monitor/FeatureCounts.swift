import Wire

/// What riders' optional features did over the run, from the bus: ETAs shared and with how many
/// riders, invitations to split fares and their answers, fares split, and the plugins the kill
/// switch turned off in apps (from the hosts' health reports).
public struct FeatureCounts: Codable, Sendable, Equatable {
    public var etaShares = 0
    /// Riders who were sent a shared ETA.
    public var ridersSharedWith = 0
    /// Riders invited to split a fare.
    public var splitInvitations = 0
    public var splitsAccepted = 0
    public var splitsDeclined = 0
    public var fareSplits = 0
    /// Apps in which a failed plugin was switched off, by feature (every life of every host).
    public var switchedOff: [String: Int] = [:]

    public init() {}

    /// Whether nothing was counted (a run without the features).
    public var isEmpty: Bool { self == FeatureCounts() }

    mutating func record(_ event: Wire.DispatchEvent) {
        switch event.kind {
        case .etaShared:
            etaShares += 1
            ridersSharedWith += event.contacts.count
        case .splitInvited: splitInvitations += event.contacts.count
        case .splitAnswered:
            if event.accepted { splitsAccepted += 1 } else { splitsDeclined += 1 }
        case .fareSplit: fareSplits += 1
        default: break
        }
    }

    /// One line for the dashboard and the summary.
    public var line: String {
        var parts = [
            "\(etaShares) ETAs shared with \(ridersSharedWith) riders",
            "\(splitInvitations) invited to split (\(splitsAccepted) accepted, \(splitsDeclined) declined)",
            "\(fareSplits) fares split",
        ]
        if !switchedOff.isEmpty {
            parts.append(
                "kill switch: "
                    + switchedOff.sorted { $0.key < $1.key }.map { "\($0.key) off in \($0.value) apps" }
                    .joined(separator: ", "))
        }
        return "features: " + parts.joined(separator: " · ")
    }
}
