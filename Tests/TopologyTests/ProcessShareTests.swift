import Scenarios
import Testing

@Suite("Process shares: every driver and every ride belongs to exactly one process")
struct ProcessShareTests {
    @Test("Driver blocks and dealt rides cover everything once, for uneven counts too", arguments: [1, 2, 3, 7])
    func partition(processes: Int) {
        for count in [0, 1, 5, 300, 301] {
            let shares = (0..<processes).map { ProcessShare(index: $0, of: processes) }
            let drivers = shares.flatMap { Array($0.drivers(of: count)) }
            #expect(drivers == Array(0..<count), "\(count) drivers over \(processes) processes")
            for ride in 0..<count {
                #expect(shares.filter { $0.takesRide(ride) }.count == 1)
            }
        }
        #expect(ProcessShare(index: 1, of: 2).drivers(of: 5) == 3..<5)
    }
}
