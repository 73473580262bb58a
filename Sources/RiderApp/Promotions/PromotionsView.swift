import RIBs

/// The promotions banner: nothing to tap.
final class PromotionsView: View<String, Never> {}
