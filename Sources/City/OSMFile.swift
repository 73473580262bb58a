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
        return try OSMPBFReader.read(path: path)
    }
}
