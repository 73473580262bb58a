import RIBs

/// The location editor's router (no children).
final class LocationEditorRouter: ViewableRouter<LocationEditorInteractor, LocationEditorView> {}
