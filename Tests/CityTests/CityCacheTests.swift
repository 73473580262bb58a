import Foundation
import Testing

@testable import City

@Suite("The city cache: each build reads only its own files, and the directory keeps the newest")
struct CityCacheTests {
    let directory = NSTemporaryDirectory() + "city-cache-\(UInt64.random(in: 0...UInt64.max))"

    @Test("A hierarchy kept by one build is read by that build and not by another")
    func hierarchiesByBuild() throws {
        let graph = CityTests.randomGraph(seed: 31, nodes: 40, edges: 150)
        let first = HierarchyStore(directory: directory, build: 1)
        _ = first.hierarchy(of: graph)
        #expect(first.built == 1 && first.read == 0)
        let again = HierarchyStore(directory: directory, build: 1)
        _ = again.hierarchy(of: graph)
        #expect(again.read == 1 && again.built == 0)
        let other = HierarchyStore(directory: directory, build: 2)
        #expect(other.path(for: graph) != again.path(for: graph))
        _ = other.hierarchy(of: graph)
        #expect(other.built == 1 && other.read == 0)
    }

    @Test("Pruned, a directory keeps its newest files of the city's kinds and leaves every other file alone")
    func pruneKeepsNewest() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let manager = FileManager.default
        for index in 0..<6 {
            for kind in ["rrg", "rch"] {
                let path = (directory as NSString).appendingPathComponent("file-\(index).\(kind)")
                try Data([UInt8(index)]).write(to: URL(fileURLWithPath: path))
                // Older files have lower numbers.
                try manager.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: Double(1_000 + index))], ofItemAtPath: path)
            }
        }
        try Data("notes".utf8).write(to: URL(fileURLWithPath: (directory as NSString).appendingPathComponent("notes.txt")))
        CityCache.prune(directory, keeping: 4)
        let left = Set(try manager.contentsOfDirectory(atPath: directory))
        #expect(left == ["file-4.rrg", "file-4.rch", "file-5.rrg", "file-5.rch", "notes.txt"])
        // Under the limit nothing goes.
        CityCache.prune(directory, keeping: 4)
        #expect(Set(try manager.contentsOfDirectory(atPath: directory)) == left)
    }
}
