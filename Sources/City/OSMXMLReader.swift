import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads OpenStreetMap XML (`.osm`, or gzip-compressed `.osm.gz`).
public enum OSMXMLReader {
    /// Reads the file at `path`; gzip is recognised by its magic bytes, not its name.
    public static func read(path: String) throws -> OSMData {
        try parse(contents: OSMFile.contents(of: path), file: (path as NSString).lastPathComponent)
    }

    /// Parses a file's contents, gzip-compressed or not; `file` names it in errors.
    public static func parse(contents raw: Data, file: String) throws -> OSMData {
        guard raw.starts(with: [0x1F, 0x8B]) else { return try parse(raw, file: file) }
        let data: Data
        do {
            data = try Inflate.decompress(raw, gzip: true)
        } catch {
            throw CityImportError(file: file, reason: "gzip: \(error)")
        }
        return try parse(data, file: file)
    }

    /// Parses OSM XML already in memory; `file` names it in errors.
    public static func parse(_ data: Data, file: String) throws -> OSMData {
        let handler = Handler()
        let parser = XMLParser(data: data)
        parser.delegate = handler
        // Foundation's parser on Linux may return false after a complete large document, and may
        // return true on a mismatched tag; what decides is an error reported to the delegate and
        // whether <osm> was closed.
        _ = parser.parse()
        if let failure = handler.failure {
            throw CityImportError(file: file, line: failure.line, reason: failure.reason)
        }
        guard handler.sawRoot else { throw CityImportError(file: file, reason: "empty: no <osm> element") }
        guard handler.closedRoot else {
            throw CityImportError(file: file, line: parser.lineNumber, reason: "ends before </osm> (truncated?)")
        }
        return handler.data
    }

    private final class Handler: NSObject, XMLParserDelegate {
        var data = OSMData()
        var failure: (line: Int, reason: String)?
        var sawRoot = false
        var closedRoot = false
        private var way: (id: Int64, nodes: [Int64], tags: [String: String])?

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            if !sawRoot {
                sawRoot = true
                if element != "osm" { fail(parser, "not OpenStreetMap XML: the root element is <\(element)>, not <osm>") }
                return
            }
            switch element {
            case "node":
                guard let id = attributes["id"].flatMap(Int64.init),
                    let lat = attributes["lat"].flatMap(Double.init),
                    let lon = attributes["lon"].flatMap(Double.init),
                    (-90...90).contains(lat), (-180...180).contains(lon)
                else { return fail(parser, "a <node> needs a numeric id and lat/lon in range") }
                data.nodes[id] = GeoPoint(lat: lat, lon: lon)
            case "way":
                guard let id = attributes["id"].flatMap(Int64.init) else { return fail(parser, "a <way> needs a numeric id") }
                way = (id, [], [:])
            case "nd" where way != nil:
                guard let ref = attributes["ref"].flatMap(Int64.init) else { return fail(parser, "an <nd> needs a numeric ref") }
                way?.nodes.append(ref)
            case "tag" where way != nil:
                if let key = attributes["k"], let value = attributes["v"] { way?.tags[key] = value }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if element == "osm" { closedRoot = true }
            if element == "way", let way {
                if way.tags["highway"] != nil { data.ways.append(OSMData.Way(id: way.id, nodes: way.nodes, tags: way.tags)) }
                self.way = nil
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
            // After </osm> nothing carries data; Foundation on Linux reports a spurious internal
            // error at the end of large documents there.
            guard !closedRoot else { return }
            fail(parser, "not well-formed XML (\((error as NSError).code))")
        }

        private func fail(_ parser: XMLParser, _ reason: String) {
            guard failure == nil else { return }
            failure = (parser.lineNumber, reason)
            parser.abortParsing()
        }
    }
}
