/// Cents shown as dollars.
struct Money: CustomStringConvertible {
    let cents: Int64
    var description: String { "$\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100)" }
}
