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
        let city = try ImportedCity(file: file)
        print("\(file): \(city.osm.nodes.count) nodes, \(city.osm.ways.count) highway ways read")
        print(city.network.report)
        print(String(format: "imported in %.2f s", city.seconds))
    }
}
