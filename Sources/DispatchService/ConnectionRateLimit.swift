/// How fast each connection may send to dispatch: a token bucket per ROUTER identity, refilled at
/// `perSecond` up to `burst`. A message beyond it is dropped unread before dispatch acts on it —
/// not journaled, not answered: to dispatch it never came, as if the network had lost it (the
/// protocol's retries cover a legitimate client that strays over). Time is the caller's (wall
/// seconds), so that tests drive it.
struct ConnectionRateLimit {
    let perSecond: Double
    let burst: Double
    /// Buckets kept at most; beyond it, those that refilled to the brim are forgotten (a flood
    /// of new connections must not grow this without bound).
    let remembered: Int
    private var buckets: [[UInt8]: (tokens: Double, at: Double)] = [:]
    /// Messages dropped so far.
    private(set) var dropped = 0

    init(perSecond: Double, burst: Double, remembered: Int = 10_000) {
        precondition(perSecond > 0 && burst >= 1, "a rate limit needs a positive rate and room for one message")
        self.perSecond = perSecond
        self.burst = burst
        self.remembered = remembered
    }

    /// Whether a message from `peer` at `time` may come in (and takes its token if so).
    mutating func admit(_ peer: [UInt8], at time: Double) -> Bool {
        var bucket = buckets[peer] ?? (burst, time)
        bucket.tokens = min(burst, bucket.tokens + max(0, time - bucket.at) * perSecond)
        bucket.at = time
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 } else { dropped += 1 }
        buckets[peer] = bucket
        if buckets.count > remembered { forgetFull(at: time) }
        return admitted
    }

    /// Connections being followed.
    var count: Int { buckets.count }

    private mutating func forgetFull(at time: Double) {
        buckets = buckets.filter { _, bucket in bucket.tokens + (time - bucket.at) * perSecond < burst }
    }
}
