import ArgumentParser
import City
import Foundation

/// `ribcity city FILE`: imports an OpenStreetMap extract and says what the road network holds.
struct CityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "city",
        abstract: "Import an OpenStreetMap extract (.osm, .osm.gz or .osm.pbf) and report its drivable road network.",
        discussion: """
            Examples:
              ribcity city Topologies/data/manhattan-south-roads.osm.pbf
            """
    )

    @Argument(help: "The OpenStreetMap file: XML (plain or gzip) or PBF.")
    var file: String

    func run() throws {
        let city = try ImportedCity(file: file)
        print("\(file): \(city.osm.nodes.count) nodes, \(city.osm.ways.count) highway ways read")
        print(city.network.report)
        print(String(format: "imported in %.2f s", city.seconds))
    }
}
