import ArgumentParser
import City
import Foundation

/// An OpenStreetMap file imported for a command, with how long the import took. A bad file is a
/// usage error naming the file, line and reason, never a crash.
struct ImportedCity {
    let osm: OSMData
    let network: RoadNetworkImport
    let duration: Duration

    init(file: String) throws {
        let clock = ContinuousClock()
        let start = clock.now
        do {
            osm = try OSMFile.read(path: file)
            network = try RoadNetworkImport(osm, file: (file as NSString).lastPathComponent)
        } catch let error as CityImportError {
            throw BadInput(error.description)
        }
        duration = clock.now - start
    }

    /// The import time in seconds.
    var seconds: Double { duration / .seconds(1) }
}
