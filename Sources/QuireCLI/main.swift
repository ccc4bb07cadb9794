import Foundation

#if canImport(CJemalloc)
    // Linked for its malloc and free, which take glibc's place (Package.swift says why).
    import CJemalloc
#endif

#if canImport(CJemalloc)
    FreedMemory.returnAtOnce()
#endif

// Entry point: run the command line and exit with its code.
let code = await QuireCommandLine(arguments: Array(CommandLine.arguments.dropFirst())).run()
exit(code.rawValue)
