// quire-sim: runs the deterministic sync simulation over many seeds.
import Foundation
import QuireSimulation

let options: SimOptions
do {
    options = try SimOptions.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let message = error.message {
        FileHandle.standardError.write(Data("quire-sim: \(message)\n\(SimOptions.usage)\n".utf8))
        exit(64)
    }
    print(SimOptions.usage)
    exit(0)
}
exit(await SimRunner(options: options).run())
