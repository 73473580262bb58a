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
}
