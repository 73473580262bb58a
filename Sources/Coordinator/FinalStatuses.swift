import Wire

/// The processes whose last status (``ProcessStatus/final``: sent once a process has stopped
/// serving, with its final totals) has come over the bus. At a run's end the coordinator waits
/// for those of the processes it stopped, for at most a bound, instead of pausing a fixed while:
/// a process killed without a word never sends one.
actor FinalStatuses {
    private var seen: Set<String> = []
    private var waiting: [(names: Set<String>, resume: CheckedContinuation<Void, Never>)] = []

    /// Notes the final statuses among `envelopes`.
    func note(_ envelopes: [Envelope]) {
        for envelope in envelopes {
            if case .processStatus(let status)? = envelope.body, status.final { seen.insert(status.processID) }
        }
        let ready = waiting.filter { $0.names.isSubset(of: seen) }
        waiting.removeAll { $0.names.isSubset(of: seen) }
        for waiter in ready { waiter.resume.resume() }
    }

    /// Returns once the final status of every one of `names` has come, or after `bound`,
    /// whichever is first; says which had not come.
    func wait(for names: Set<String>, atMost bound: Duration) async -> Set<String> {
        if !names.isSubset(of: seen) {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.arrival(of: names) }
                group.addTask { try? await Task.sleep(for: bound) }
                await group.next()
                group.cancelAll()
                // The arrival's waiter, if it is still waiting, is let go.
                self.release(names)
            }
        }
        return names.subtracting(seen)
    }

    private func arrival(of names: Set<String>) async {
        guard !names.isSubset(of: seen) else { return }
        await withCheckedContinuation { waiting.append((names, $0)) }
    }

    private func release(_ names: Set<String>) {
        let released = waiting.filter { $0.names == names }
        waiting.removeAll { $0.names == names }
        for waiter in released { waiter.resume.resume() }
    }
}
