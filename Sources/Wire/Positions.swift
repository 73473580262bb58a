import City

extension LatLon {
    /// A position on the wire, from a point of the city.
    public init(_ point: GeoPoint) {
        self.init()
        lat = point.lat
        lon = point.lon
    }
}

extension GeoPoint {
    /// A point of the city, from a position on the wire.
    public init(_ position: LatLon) {
        self.init(lat: position.lat, lon: position.lon)
    }
}
