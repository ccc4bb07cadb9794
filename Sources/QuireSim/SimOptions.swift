import Foundation

/// `quire-sim [--seeds N] [--start S] [--devices D] [--steps K] [--no-trips] [--companion] [--verbose]`, parsed.
struct SimOptions {
    var seeds = 100
    var start: UInt64 = 1
    var devices = 3
    var steps = 60
    var verbose = false
    var trips = true
    var companion = false

    static let usage = """
        usage: quire-sim [--seeds N] [--start S] [--devices D] [--steps K] [--no-trips] [--companion] [--verbose]
          --seeds N    how many seeds to run (default 100)
          --start S    the first seed (default 1); seeds S, S+1, ... S+N-1 run
          --devices D  devices per world (default 3)
          --steps K    planned actions per seed (default 60)
          --no-trips   notes only: the plans of versions before trips, seed for seed
          --companion  a second account shares the trips: shares, role changes, removals
          --verbose    print every seed's result and counts
        Exit status: 0 all passed, 1 a seed failed (its seed and shrunk log are printed), 64 bad flags.
        Rerun one seed: quire-sim --start <seed> --seeds 1 --verbose
        """

    /// Parses the arguments (without the program name); throws a message for bad flags.
    static func parse(_ arguments: [String]) throws(UsageError) -> SimOptions {
        var options = SimOptions()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            func value() throws(UsageError) -> String {
                guard let value = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
                return value
            }
            func positive(_ text: String) throws(UsageError) -> Int {
                guard let number = Int(text), number > 0 else {
                    throw UsageError("\(flag) needs a positive whole number, not '\(text)'")
                }
                return number
            }
            switch flag {
            case "--seeds": options.seeds = try positive(try value())
            case "--start":
                let text = try value()
                guard let start = UInt64(text) else {
                    throw UsageError("--start needs a seed number, not '\(text)'")
                }
                options.start = start
            case "--devices": options.devices = try positive(try value())
            case "--steps": options.steps = try positive(try value())
            case "--verbose": options.verbose = true
            case "--no-trips": options.trips = false
            case "--companion": options.companion = true
            case "--help", "-h": throw UsageError(nil)
            default: throw UsageError("unknown flag '\(flag)'")
            }
        }
        return options
    }
}

/// A bad command line: the message (nil for `--help`) goes before the usage text.
struct UsageError: Error {
    let message: String?

    init(_ message: String?) {
        self.message = message
    }
}
