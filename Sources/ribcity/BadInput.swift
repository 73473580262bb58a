/// An input file that cannot be used — a topology, OSM file, trip records, journal, run summary
/// — with the file, line or field and the reason in `description`. Not a usage error: the
/// command exits 65 (EX_DATAERR) with the message alone, no usage text.
struct BadInput: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
