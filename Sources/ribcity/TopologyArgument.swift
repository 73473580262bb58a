import ArgumentParser

/// The topology file, passed the same way to every command: first (`ribcity launch FILE`) or as
/// `--topology FILE`, whichever reads better; not both.
struct TopologyArgument: ParsableArguments {
    @Argument(help: "The topology file (Topologies/*.yaml); or --topology FILE.")
    var file: String?

    @Option(name: .customLong("topology"), help: "The topology file (the same as giving it first).")
    var option: String?

    /// The topology's path.
    var path: String { file ?? option ?? "" }

    func validate() throws {
        switch (file, option) {
        case (nil, nil): throw ValidationError("Missing the topology: give it first (TOPOLOGY) or as --topology FILE.")
        case (let first?, let named?) where first != named:
            throw ValidationError("Two topologies: \(first) and --topology \(named); give one.")
        default: break
        }
    }
}
