/// The harness itself could not go on (a file would not open): reported as a failure of the seed.
struct SimulationError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
