import RIBs
import Wire

/// UberX or POOL, each with its price and pickup ETA once quoted.
struct ProductSelectionScreen: Equatable, CustomStringConvertible {
    var quotes: Quotes

    var description: String {
        guard !quotes.isEmpty else { return "Choose a ride · quoting…" }
        let options = quotes.all.map { quote in
            "[\(quote.product == .pool ? "POOL" : "UberX") \(Money(cents: quote.priceCents)) · pickup \(quote.pickupEtaS) s]"
        }
        return "Choose a ride · " + options.joined(separator: " ")
    }
}

/// What a user can do on the product selection.
enum ProductSelectionAction { case choose(Wire.Product) }

/// The product selection screen.
final class ProductSelectionView: View<ProductSelectionScreen, ProductSelectionAction> {}
