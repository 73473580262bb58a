/// Text read off the wire: the bytes as a string only if they are valid UTF-8.
///
/// Not `String(validating:as:)`, which runs unspecialized here and looks up its generic
/// metadata for every call — once per bus message in the coordinator's tap.
public enum UTF8Text {
    /// `bytes` as a string, or nil if they are not valid UTF-8.
    public static func validated(_ bytes: UnsafeRawBufferPointer) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces what is invalid, so the text's bytes differ from the input exactly then.
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// `bytes` as a string, or nil if they are not valid UTF-8.
    public static func validated(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { validated($0) }
    }
}
