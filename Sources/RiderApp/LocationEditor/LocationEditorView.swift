import City
import RIBs

/// What a user can do on the location editor.
enum LocationEditorAction { case set(pickup: GeoPoint, dropoff: GeoPoint) }

/// Where from and where to.
final class LocationEditorView: View<String, LocationEditorAction> {}
