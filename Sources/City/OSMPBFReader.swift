import Foundation
import SwiftProtobuf

/// Reads OpenStreetMap PBF (`.osm.pbf`): a sequence of length-prefixed blob headers and blobs
/// (raw or zlib), holding a header block and primitive blocks of nodes and ways (decoded with
/// swift-protobuf from `Proto/osmpbf.proto`).
public enum OSMPBFReader {
    /// The header features this reader understands; a file requiring others is refused.
    static let understood: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

    public static func read(path: String) throws -> OSMData {
        try parse(OSMFile.contents(of: path), file: (path as NSString).lastPathComponent)
    }

    /// Parses PBF already in memory; `file` names it in errors, which also give the block and
    /// byte offset where the problem is.
    public static func parse(_ data: Data, file: String) throws -> OSMData {
        var osm = OSMData()
        var offset = data.startIndex
        var block = 0
        var sawHeader = false
        var options = BinaryDecodingOptions()
        options.discardUnknownFields = true
        func fail(_ reason: String) -> CityImportError {
            CityImportError(file: file, reason: "block \(block) at byte \(offset - data.startIndex): \(reason)")
        }
        while offset < data.endIndex {
            guard data.endIndex - offset >= 4 else { throw fail("truncated: a block length needs 4 bytes") }
            let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, length <= 64 * 1024 else {
                throw fail(
                    block == 0 ? "not an OSM PBF file (no block header)" : "block header of \(length) bytes is not plausible")
            }
            guard data.endIndex - offset - 4 >= length else {
                throw fail("truncated: the block header ends past the end of the file")
            }
            let header: PBFBlobHeader
            do {
                header = try PBFBlobHeader(serializedBytes: data[offset + 4..<offset + 4 + length], options: options)
            } catch {
                throw fail(block == 0 ? "not an OSM PBF file (\(error))" : "malformed block header (\(error))")
            }
            let size = Int(header.datasize)
            guard header.hasType, header.hasDatasize, size >= 0, size <= 32 * 1024 * 1024 else {
                throw fail(
                    block == 0 ? "not an OSM PBF file (no block type and size)" : "block header without a plausible type and size"
                )
            }
            let start = offset + 4 + length
            guard data.endIndex - start >= size else {
                throw fail("truncated: the \(header.type) block ends past the end of the file")
            }
            let payload = try contents(of: data[start..<start + size], options: options, fail: fail)
            switch header.type {
            case "OSMHeader":
                let head: PBFHeaderBlock
                do { head = try PBFHeaderBlock(serializedBytes: payload, options: options) } catch {
                    throw fail("malformed header block (\(error))")
                }
                let unknown = Set(head.requiredFeatures).subtracting(understood)
                guard unknown.isEmpty else {
                    throw fail("requires features this reader lacks: \(unknown.sorted().joined(separator: ", "))")
                }
                sawHeader = true
            case "OSMData":
                guard sawHeader else { throw fail("data before the OSMHeader block") }
                do {
                    try add(PBFPrimitiveBlock(serializedBytes: payload, options: options), to: &osm)
                } catch let error as CityImportError {
                    throw fail(error.reason)
                } catch {
                    throw fail("malformed data block (\(error))")
                }
            default:
                break
            }
            offset = start + size
            block += 1
        }
        guard sawHeader else { throw CityImportError(file: file, reason: "empty: no OSMHeader block") }
        return osm
    }

    private static func contents(of bytes: Data, options: BinaryDecodingOptions, fail: (String) -> CityImportError) throws -> Data
    {
        let blob: PBFBlob
        do { blob = try PBFBlob(serializedBytes: bytes, options: options) } catch { throw fail("malformed blob (\(error))") }
        if blob.hasRaw { return blob.raw }
        if blob.hasZlibData {
            do {
                return try Inflate.decompress(blob.zlibData, gzip: false, expectedSize: blob.hasRawSize ? Int(blob.rawSize) : nil)
            } catch {
                throw fail("zlib: \(error)")
            }
        }
        let kind = blob.hasLzmaData ? "lzma" : blob.hasLz4Data ? "lz4" : blob.hasZstdData ? "zstd" : "unknown"
        throw fail("\(kind) compression is not supported (zlib or raw blobs are)")
    }

    private static func add(_ block: PBFPrimitiveBlock, to osm: inout OSMData) throws {
        let strings = block.stringtable.s.map { String(decoding: $0, as: UTF8.self) }
        func string(_ index: Int) throws -> String {
            guard strings.indices.contains(index) else {
                throw CityImportError(file: "", reason: "string index \(index) outside the table of \(strings.count)")
            }
            return strings[index]
        }
        let granularity = Double(block.granularity)
        let latOffset = Double(block.latOffset), lonOffset = Double(block.lonOffset)
        func degrees(_ value: Int64, _ offset: Double) -> Double { (offset + granularity * Double(value)) * 1e-9 }
        for group in block.primitivegroup {
            if group.hasDense {
                let dense = group.dense
                guard dense.id.count == dense.lat.count, dense.id.count == dense.lon.count else {
                    throw CityImportError(
                        file: "",
                        reason:
                            "dense nodes with \(dense.id.count) ids, \(dense.lat.count) latitudes, \(dense.lon.count) longitudes")
                }
                var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
                for index in dense.id.indices {
                    id &+= dense.id[index]
                    lat &+= dense.lat[index]
                    lon &+= dense.lon[index]
                    osm.nodes[id] = GeoPoint(lat: degrees(lat, latOffset), lon: degrees(lon, lonOffset))
                }
            }
            for node in group.nodes {
                osm.nodes[node.id] = GeoPoint(lat: degrees(node.lat, latOffset), lon: degrees(node.lon, lonOffset))
            }
            for way in group.ways {
                guard way.keys.count == way.vals.count else {
                    throw CityImportError(
                        file: "", reason: "way \(way.id) has \(way.keys.count) keys and \(way.vals.count) values")
                }
                var tags: [String: String] = [:]
                for (key, value) in zip(way.keys, way.vals) { tags[try string(Int(key))] = try string(Int(value)) }
                guard tags["highway"] != nil else { continue }
                var ref: Int64 = 0
                let nodes = way.refs.map { delta -> Int64 in
                    ref &+= delta
                    return ref
                }
                osm.ways.append(OSMData.Way(id: way.id, nodes: nodes, tags: tags))
            }
        }
    }
}
