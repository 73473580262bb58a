import City
import Randomness

/// The seeded generator the tests use: the one the simulation uses.
public typealias SplitMix = SeededGenerator
