import Wire

/// The processes whose last status (``ProcessStatus/final``: sent once a process has stopped
/// serving, with its final totals) has come over the bus. At a run's end the coordinator waits
/// for those of the processes it stopped, for at most a bound, instead of pausing a fixed while:
/// a process killed without a word never sends one.
actor FinalStatuses {
    private var seen: Set<String> = []
    /// Who waits for which names, each wait by its own number.
    private var waiting: [Int: (names: Set<String>, resume: CheckedContinuation<Void, Never>)] = [:]
    private var nextWait = 0

    /// The processes whose final status is among `envelopes`: read where the bus is read, so
    /// that a batch without one (nearly every batch) costs no hop to this actor.
    nonisolated static func finished(in envelopes: [Envelope]) -> [String] {
        envelopes.compactMap { envelope in
            guard case .processStatus(let status)? = envelope.body, status.final else { return nil }
            return status.processID
        }
    }

    /// Notes that these processes' final statuses have come (``finished(in:)``).
    func note(finished names: [String]) {
        seen.formUnion(names)
        for (number, waiter) in waiting where waiter.names.isSubset(of: seen) {
            waiting[number] = nil
            waiter.resume.resume()
        }
    }

    /// Returns once the final status of every one of `names` has come, or after `bound`,
    /// whichever is first; says which had not come.
    func wait(for names: Set<String>, atMost bound: Duration) async -> Set<String> {
        if !names.isSubset(of: seen) {
            let number = nextWait
            nextWait += 1
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.arrival(of: names, as: number) }
                group.addTask { try? await Task.sleep(for: bound) }
                await group.next()
                group.cancelAll()
                // This wait's arrival, if it is still waiting, is let go (only this one's).
                self.release(number)
            }
        }
        return names.subtracting(seen)
    }

    private func arrival(of names: Set<String>, as number: Int) async {
        guard !names.isSubset(of: seen) else { return }
        await withCheckedContinuation { waiting[number] = (names, $0) }
    }

    private func release(_ number: Int) {
        waiting.removeValue(forKey: number)?.resume.resume()
    }
}
