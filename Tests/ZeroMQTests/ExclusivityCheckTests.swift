import Testing

/// Release builds leave out the run-time exclusivity checks (Package.swift, `strict`); the tests
/// run debug builds, which must keep them, or an overlapping access would go unnoticed everywhere.
@Suite("Exclusivity checks in the builds the tests run")
struct ExclusivityCheckTests {
    @Test("Modifying a class's property while it is being modified traps")
    func overlappingAccessTraps() async {
        await #expect(processExitsWith: .failure) {
            final class Counter { var value = 0 }
            func increment(_ value: inout Int, after body: () -> Void) {
                body()
                value += 1
            }
            let counter = Counter()
            increment(&counter.value) { counter.value += 1 }
        }
    }
}
