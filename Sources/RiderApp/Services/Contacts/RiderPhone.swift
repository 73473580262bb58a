import Contacts

/// The phone numbers of the city's riders: rider N has +1 646 N (seven digits). Address books
/// write them in several ways; the directory reads them back.
enum RiderPhone {
    /// Rider `number`'s phone number, written in one of three ways (`style` 0, 1 or 2).
    static func number(ofRider number: Int, style: Int) -> String {
        let digits = String(number % 10_000_000)
        let seven = String(repeating: "0", count: 7 - digits.count) + digits
        let exchange = seven.prefix(3)
        let line = seven.suffix(4)
        switch style % 3 {
        case 0: return "+1 646 \(exchange) \(line)"
        case 1: return "(646) \(exchange)-\(line)"
        default: return "646.\(exchange).\(line)"
        }
    }
}

/// Who has an account: the riders of the city, found by their phone numbers.
struct CityRiderDirectory: AccountDirectory {
    /// How many riders the city has (rider-0 … rider-(count − 1)).
    let count: Int

    func account(forPhone digits: String) -> String? {
        guard digits.count == 11, digits.hasPrefix("1646"), let number = Int(digits.dropFirst(4)), number < count else {
            return nil
        }
        return "rider-\(number)"
    }
}
