import CZlib
import Foundation

/// zlib decompression, for gzip files (`.osm.gz`) and the zlib blobs inside `.osm.pbf`.
enum Inflate {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Decompresses gzip (`gzip: true`) or zlib data completely.
    static func decompress(_ data: Data, gzip: Bool, expectedSize: Int? = nil) throws -> Data {
        var stream = z_stream()
        // 15 window bits; +16 selects the gzip wrapper.
        guard ribcity_inflate_init(&stream, gzip ? 31 : 15) == Z_OK else {
            throw Failure(description: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data(capacity: expectedSize ?? max(1 << 16, data.count * 4))
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let status: Int32 = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: UInt8.self).baseAddress)
            stream.avail_in = uInt(input.count)
            var status = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                // A gzip file may hold several members one after another.
                if status == Z_STREAM_END && gzip && stream.avail_in > 0 {
                    status = inflateReset(&stream)
                }
            } while status == Z_OK
            return status
        }
        guard status == Z_STREAM_END else {
            let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
            throw Failure(description: status == Z_BUF_ERROR ? "compressed data ends early (truncated)" : reason)
        }
        return output
    }
}
