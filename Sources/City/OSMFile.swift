import Foundation

/// Reads an OpenStreetMap file of any supported kind, recognised by its first bytes rather than
/// its name: XML (`<`), gzip-compressed XML, or PBF.
public enum OSMFile {
    public static func read(path: String) throws -> OSMData {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CityImportError(file: path, reason: "cannot be read (missing or not a file)")
        }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        try? handle.close()
        let text = head.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if head.starts(with: [0x1F, 0x8B]) || text.first == UInt8(ascii: "<") {
            return try OSMXMLReader.read(path: path)
        }
        // A PBF file opens with a block header: its length (4 bytes, big-endian, small) and the
        // header's first field (tag 1, bytes: 0x0A).
        let bytes = [UInt8](head)
        let headerLength = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard bytes.count >= 5, headerLength < 64 << 10, bytes[4] == 0x0A else {
            let shown = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
            throw CityImportError(
                file: (path as NSString).lastPathComponent,
                reason: "neither OSM XML nor PBF (it begins with \"\(shown)\"; XML begins with <, PBF with a block header)")
        }
        return try OSMPBFReader.read(path: path)
    }
}
