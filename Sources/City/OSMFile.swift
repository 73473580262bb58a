import Foundation

/// Reads an OpenStreetMap file of any supported kind, recognised by its first bytes rather than
/// its name: XML (`<`), gzip-compressed XML, or PBF.
public enum OSMFile {
    public static func read(path: String) throws -> OSMData {
        try parse(contents(of: path), path: path)
    }

    /// The bytes of the file at `path`, or an error naming it.
    public static func contents(of path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CityImportError(file: path, reason: "cannot be read (missing or not a file)")
        }
        return data
    }

    /// Parses the `data` of the file at `path` (which names it in errors), of whichever kind its
    /// first bytes say.
    public static func parse(_ data: Data, path: String) throws -> OSMData {
        let file = (path as NSString).lastPathComponent
        let head = data.prefix(8)
        let text = head.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if head.starts(with: [0x1F, 0x8B]) || text.first == UInt8(ascii: "<") {
            return try OSMXMLReader.parse(contents: data, file: file)
        }
        // A PBF file opens with a block header: its length (4 bytes, big-endian, small) and the
        // header's first field (tag 1, bytes: 0x0A).
        let bytes = [UInt8](head)
        let headerLength = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count >= 5, headerLength < 64 << 10, bytes[4] == 0x0A else {
            let shown = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            throw CityImportError(
                file: file,
                reason: "neither OSM XML nor PBF (it begins with \"\(shown)\"; XML begins with <, PBF with a block header)")
        }
        return try OSMPBFReader.parse(data, file: file)
    }
}
