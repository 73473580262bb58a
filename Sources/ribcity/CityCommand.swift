import ArgumentParser
import City
import Foundation

/// `ribcity city FILE`: imports an OpenStreetMap extract and says what the road network holds.
struct CityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city",
        abstract: "Import an OpenStreetMap extract (.osm or .osm.gz) and report its drivable road network."
    )

    @Argument(help: "The OpenStreetMap XML file, plain or gzip.")
    var file: String

    func run() throws {
        let start = Date()
        do {
            let osm = try OSMXMLReader.read(path: file)
            let network = try RoadNetworkImport(osm, file: (file as NSString).lastPathComponent)
            let seconds = Date().timeIntervalSince(start)
            print("\(file): \(osm.nodes.count) nodes, \(osm.ways.count) highway ways read")
            print(network.report)
            print(String(format: "imported in %.2f s", seconds))
        } catch let error as CityImportError {
            throw ValidationError(error.description)
        }
    }
}
