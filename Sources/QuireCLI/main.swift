import Foundation

// Entry point: run the command line and exit with its code.
let code = await QuireCommandLine(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(code.rawValue)
