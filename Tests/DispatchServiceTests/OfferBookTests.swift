import Foundation
import RideDispatch
import Testing

@testable import DispatchService

/// The offer book finds a request's offers through an index of its own: closing one, or all of a
/// request's, leaves exactly the others open, and a book read back from a snapshot closes as the
/// one written did.
@Suite("Dispatch desk: the offer book")
struct OfferBookTests {
    let first = RequestID(1), second = RequestID(2)
    let one = DriverID(1), two = DriverID(2), three = DriverID(3)

    /// A book with the first request offered to drivers one and two, the second to `other`.
    private func book(secondTo other: DriverID) -> (book: OfferBook, names: [String]) {
        var book = OfferBook()
        let names = [book.make(first, to: one), book.make(first, to: two), book.make(second, to: other)]
        return (book, names)
    }

    @Test("Closing one driver's offer of a request leaves that request's others and every other request's open")
    func closesOne() {
        var (book, names) = book(secondTo: three)
        let (a, b, c) = (names[0], names[1], names[2])
        book.close(first, driver: one)
        #expect(book[a] == nil)
        #expect(book[b] == OfferBook.Open(request: first, driver: two))
        #expect(book[c] == OfferBook.Open(request: second, driver: three))
        #expect(book.count == 2)
        // Closing what is not open changes nothing.
        book.close(first, driver: three)
        book.close(RequestID(9), driver: one)
        #expect(book.count == 2)
    }

    @Test("Closing all of a request's offers leaves the other requests' offers open")
    func closesAll() {
        var (book, names) = book(secondTo: one)
        let (a, b, c) = (names[0], names[1], names[2])
        book.closeAll(of: first)
        #expect(book[a] == nil && book[b] == nil)
        #expect(book[c] == OfferBook.Open(request: second, driver: one))
        #expect(book.count == 1)
        book.closeAll(of: second)
        #expect(book.count == 0)
        // A name is never given twice, whatever was closed.
        #expect(book.make(first, to: one) == "offer-4")
    }

    @Test("A book read back from its encoding closes offers as the original does")
    func roundTrip() throws {
        var (book, names) = book(secondTo: three)
        let (b, c) = (names[1], names[2])
        var read = try JSONDecoder().decode(OfferBook.self, from: JSONEncoder().encode(book))
        read.close(first, driver: one)
        book.close(first, driver: one)
        #expect(read[b] == book[b] && read[c] == book[c] && read.count == book.count)
        read.closeAll(of: first)
        #expect(read[b] == nil && read.count == 1)
        #expect(read.make(second, to: one) == "offer-4")
    }
}
