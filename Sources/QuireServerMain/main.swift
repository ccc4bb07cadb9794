import Foundation

#if canImport(CJemalloc)
    // Linked for its malloc and free, which take glibc's place (Package.swift says why).
    import CJemalloc
#endif

// quire-server: see ServerCommand.usage. Everything runs in ServerRunner; this file only maps the
// command line to an exit status.
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    let command = try ServerCommand.parse(arguments)
    exit(await ServerRunner.run(command))
} catch {
    FileHandle.standardError.write(
        Data("quire-server: \(error.message)\n\n\(ServerCommand.usage)\n".utf8))
    exit(64)
}
