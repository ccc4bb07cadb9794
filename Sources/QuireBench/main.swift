import Foundation

#if canImport(CJemalloc)
    // Linked for its malloc and free, which take glibc's place (Package.swift says why).
    import CJemalloc
#endif

// quire-bench: the benchmark suite. See docs/benchmarks.md for what each figure means.
// Exits 0 even when a target is missed (the table says so), 64 on bad flags.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == SyncChild.subcommand {
    exit(await SyncChild.main(Array(arguments.dropFirst())))
}
if arguments.first == StoreFloorChild.subcommand {
    exit(StoreFloorChild.main(Array(arguments.dropFirst())))
}
if arguments.first == MediaChild.subcommand {
    exit(MediaChild.main(Array(arguments.dropFirst())))
}
if arguments.first == PhotoUploadChild.subcommand {
    exit(await PhotoUploadChild.main(Array(arguments.dropFirst())))
}
if arguments.first == FloodServerChild.subcommand {
    exit(await FloodServerChild.main(Array(arguments.dropFirst())))
}
if arguments.contains("--help") || arguments.contains("-h") {
    print(BenchOptions.usage)
    exit(0)
}

let options: BenchOptions
do {
    options = try BenchOptions.parse(arguments)
} catch {
    FileHandle.standardError.write(Data("quire-bench: \(error)\n\n\(BenchOptions.usage)\n".utf8))
    exit(64)
}

let environment = RunEnvironment.current(options: options)
progress("\(environment.buildMode) build, \(environment.cores) cores, \(options.quick ? "quick" : "full") sizes")
let context: BenchContext
do {
    context = try BenchContext(options: options)
} catch {
    FileHandle.standardError.write(Data("quire-bench: cannot start: \(error)\n".utf8))
    exit(1)
}
let rows = await BenchSuite.run(context)
await context.finish()

do {
    let output =
        options.json
        ? try ReportRenderer.json(rows, environment: environment) : ReportRenderer.table(rows)
    FileHandle.standardOutput.write(Data(output.utf8))
    if let path = options.docsPath {
        try DocsWriter.write(ReportRenderer.markdown(rows, environment: environment), to: path)
        progress("wrote the results to \(path)")
    }
} catch {
    FileHandle.standardError.write(Data("quire-bench: \(error)\n".utf8))
    exit(1)
}
exit(0)
