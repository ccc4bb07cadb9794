/// A child that could not be started: the program, and what the system said.
public struct SpawnError: Error, CustomStringConvertible, Sendable {
    public var program: String
    public var reason: String

    public var description: String { "could not start \(program): \(reason)" }
}
