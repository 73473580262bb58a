import AppRuntime
import RIBs

/// What plugins are given: the rider's services, the app's clock, the feature flags (a plugin
/// that finds itself broken switches itself off through them), and which plugins are set to
/// fail (the kill switch's test).
struct RiderServices {
    let ride: RideService
    let social: SocialService
    let contacts: RiderContacts
    let link: AppLink
    let flags: FeatureFlags
    let faults: PluginFaults

    /// Whether `feature` fails as it starts work (the topology made it): if so it is switched
    /// off, and the kill switch detaches it.
    func failsAtWork(_ feature: String) -> Bool {
        guard let failure = faults.failureAtWork(of: feature) else { return false }
        flags.switchOff(feature, reason: failure)
        return true
    }
}
