import Wire

/// The quotes a rider has, at most one per product, ordered by product. An array: a rider asks
/// for two quotes, and a dictionary's storage would weigh more than both of them.
struct Quotes: Equatable {
    /// By product, ascending.
    private(set) var all: [Wire.Quote] = []

    var isEmpty: Bool { all.isEmpty }

    /// The quote for `product`, if one came.
    subscript(product: Wire.Product) -> Wire.Quote? { all.first { $0.product == product } }

    /// Keeps `quote`, in place of an earlier quote for its product.
    mutating func insert(_ quote: Wire.Quote) {
        all.removeAll { $0.product == quote.product }
        let index = all.firstIndex { $0.product.rawValue > quote.product.rawValue } ?? all.endIndex
        all.insert(quote, at: index)
    }
}
