import AppRuntime
import RIBs

/// What plugins are given: the rider's services, the app's clock, the feature flags (a plugin
/// that finds itself broken switches itself off through them), and which plugins are set to
/// fail (the kill switch's test). A view of the app's root component, which owns them all.
struct RiderServices {
    private let root: RiderRootComponent

    init(of root: RiderRootComponent) {
        self.root = root
    }

    var ride: RideService { root.ride }
    var social: SocialService { root.social }
    var contacts: RiderContacts { root.contacts }
    var link: AppLink { root.link }
    var flags: FeatureFlags { root.flags }
    var faults: PluginFaults { root.faults }

    /// Whether `feature` fails as it starts work (the topology made it): if so it is switched
    /// off, and the kill switch detaches it.
    func failsAtWork(_ feature: String) -> Bool {
        guard let failure = faults.failureAtWork(of: feature) else { return false }
        flags.switchOff(feature, reason: failure)
        return true
    }
}
