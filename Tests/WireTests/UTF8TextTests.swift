import Testing
import Wire

@Suite("Text off the wire: valid UTF-8 or nothing")
struct UTF8TextTests {
    @Test("Valid UTF-8 reads as itself; anything invalid is refused, not repaired")
    func validation() {
        #expect(UTF8Text.validated(Array("dispatch.trip".utf8)) == "dispatch.trip")
        #expect(UTF8Text.validated(Array("Åsa → 14th St".utf8)) == "Åsa → 14th St")
        #expect(UTF8Text.validated([]) == "")
        #expect(UTF8Text.validated([0x64, 0xFF, 0x65]) == nil, "a byte that is never UTF-8")
        #expect(UTF8Text.validated([0xE2, 0x82]) == nil, "a sequence cut short")
        #expect(UTF8Text.validated([0xC0, 0xAF]) == nil, "an overlong encoding")
        #expect(UTF8Text.validated([0xED, 0xA0, 0x80]) == nil, "a surrogate")
        #expect(UTF8Text.validated([0xEF, 0xBF, 0xBD]) == "\u{FFFD}", "the replacement character itself is valid")
    }
}
