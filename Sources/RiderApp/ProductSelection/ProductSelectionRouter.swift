import RIBs

/// The product selection's router (no children).
final class ProductSelectionRouter: ViewableRouter<ProductSelectionInteractor, ProductSelectionView> {}
