extension Array where Element == Message {
    /// The same messages with each ROUTER peer's together: peers in the order they first appear,
    /// each peer's messages in their own order (the routing identity is the first frame).
    ///
    /// A ROUTER keeps order only per peer, so no peer sees a difference; what changes is how many
    /// sends it takes. A packet link carries the messages that follow one another to the same
    /// connection in one datagram, so a batch interleaved across peers (dispatch's replies of a
    /// window, in the order its events happened) went as several datagrams to each.
    public func groupedByPeer() -> [Message] {
        var groupOf: [[UInt8]: Int] = [:]
        var groups: [[Int]] = []
        var interleaved = false
        for index in indices {
            let peer = self[index].first
            if let group = groupOf[peer] {
                if group != groups.count - 1 { interleaved = true }
                groups[group].append(index)
            } else {
                groupOf[peer] = groups.count
                groups.append([index])
            }
        }
        guard interleaved else { return self }
        var grouped: [Message] = []
        grouped.reserveCapacity(count)
        for group in groups {
            for index in group { grouped.append(self[index]) }
        }
        return grouped
    }
}
