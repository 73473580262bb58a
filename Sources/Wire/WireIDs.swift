/// The conventions that tie ids to one another on the wire, kept in one place so that every
/// process derives them the same way: a rider's request, a request's trip, the names of apps,
/// processes and surge zones.
public enum WireIDs {
    /// A rider app asks for one ride in its life, so its request is named after the rider.
    public static func request(ofRider rider: String) -> String { rider }

    /// A trip is named after the request it serves.
    public static func trip(ofRequest request: String) -> String { "trip-" + request }

    /// The `number`th rider of a city (numbered from 1 across its rider processes).
    public static func rider(_ number: Int) -> String { "rider-\(number)" }

    /// The `number`th driver of a city (numbered from 1 across its driver processes).
    public static func driver(_ number: Int) -> String { "driver-\(number)" }

    /// A surge zone of dispatch's grid.
    public static func zone(_ index: Int) -> String { "zone-\(index)" }
}
