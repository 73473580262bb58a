import RideDispatch
import Wire

/// A desk's part of sharded dispatch (docs/ARCHITECTURE.md, "Sharded dispatch"): its shard and
/// the map every process computes alike. A request belongs to the shard of its pickup; a driver
/// to the shard where it stands while idle.
public struct DeskShard: Sendable {
    /// This desk's shard, from 0.
    public let index: Int
    public let map: ShardMap
    /// How it matches across its borders.
    public var border: BorderDesk.Settings

    public init(index: Int, map: ShardMap, border: BorderDesk.Settings = BorderDesk.Settings()) {
        precondition(map.shards > 1 && (0..<map.shards).contains(index), "one shard of several")
        self.index = index
        self.map = map
        self.border = border
    }

    /// The process name of shard `shard` ("dispatch-K").
    public func process(_ shard: Int) -> String { WireIDs.dispatchProcess(shard: shard, of: map.shards) }
}

extension DispatchDesk {
    /// Refuses `node` (the position in `field`) when another shard owns it, naming that shard.
    func requireOwn(_ node: Int, _ field: String) throws(DeskFailure) {
        guard let shard = settings.shard else { return }
        let owner = shard.map.shard(ofNode: node)
        guard owner != shard.index else { return }
        throw DeskFailure(
            code: .notOwner,
            reason: "the \(field) is in the region of \(shard.process(owner)), not \(shard.process(shard.index))",
            shard: owner)
    }

    /// A driver whose last leg just ended: if it is idle (no plan, no offer, not held) in
    /// another shard's region, this shard lets it go — offline here, forgotten by its session —
    /// and returns the handover its host carries to the new owner. Only the driver's owner acts on
    /// it, in its own journaled order, so no two shards ever hold the same driver.
    func handOverIfElsewhere(_ driver: DriverID, named name: String, at time: Double) -> DriverHandover? {
        guard let shard = settings.shard, engine.isFree(driver), let node = engine.position(of: driver) else { return nil }
        let owner = shard.map.shard(ofNode: node)
        guard owner != shard.index, (try? engine.driverOffline(driver, now: time)) != nil else { return nil }
        if let session = driverLines[name]?.session { sessions[session]?.drivers.remove(name) }
        driverLines[name] = nil
        driversHandedOver += 1
        return DriverHandover.with {
            $0.driverID = name
            $0.shard = UInt32(owner)
            $0.location = LatLon(engine.graph.positions[node])
            $0.legsIssued = UInt32(clamping: engine.legsIssued(of: driver))
        }
    }
}
