import RIBs

/// What a user can do on the rating screen.
enum RatingAction { case rate(stars: UInt32) }

/// Stars for the trip just ended.
final class RatingView: View<String, RatingAction> {}
