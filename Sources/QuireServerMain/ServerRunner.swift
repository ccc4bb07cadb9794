import Dispatch
import Foundation
import QuireServer

/// Runs a parsed ``ServerCommand`` and returns the process's exit status.
enum ServerRunner {
    static func run(_ command: ServerCommand) async -> Int32 {
        switch command {
        case .help:
            writeOut(ServerCommand.usage + "\n")
            return 0
        case .serve(let options):
            return await serve(options)
        }
    }

    // MARK: - Serving

    private static func serve(_ options: ServerCommand.ServeOptions) async -> Int32 {
        // The certificate first: a file that cannot be used stops the server before it opens
        // the database or listens.
        var tls: TLSCredentials?
        if let certificate = options.tlsCertificateFile, let key = options.tlsKeyFile {
            do {
                tls = try TLSCredentials.load(certificateFile: certificate, keyFile: key)
            } catch {
                if case .unreadable = error { return fail(error.description, status: 66) }
                return fail(error.description, status: 64)
            }
        }
        var metricsToken: String?
        if let file = options.metricsTokenFile {
            switch readMetricsToken(file) {
            case .success(let token): metricsToken = token
            case .failure(let failure): return fail(failure.message, status: failure.status)
            }
        }
        let blobs = FileBlobStore(directory: options.resolvedBlobsDirectory)
        do {
            try blobs.prepare()
        } catch {
            return fail("cannot keep uploads in \(blobs.root.path): \(error); pass another directory with --blobs")
        }
        let server: NotesServer
        var configuration = NotesServerConfiguration(
            accessTokenTTL: options.accessTokenTTL, minKDFIterations: options.minKDFIterations,
            authHashIterations: options.authHashIterations)
        configuration.longPollsPerAccount = options.longPollsPerAccount
        configuration.metricsToken = metricsToken
        configuration.liveUpdateRecheck = .seconds(options.liveUpdateRecheck)
        configuration.backgroundBatchSize = options.backgroundBatch
        configuration.sessionLifetime = SessionLifetime(
            idle: TimeInterval(options.sessionIdleDays) * 86_400,
            absolute: TimeInterval(options.sessionMaxDays) * 86_400)
        configuration.trustedProxies = TrustedProxies(options.trustedProxies)
        configuration.registrationLimit = RegistrationLimit.Policy(
            burst: options.registrationBurst, interval: TimeInterval(options.registrationInterval))
        configuration.noteQuota = NoteQuota(
            maxNotes: options.maxNotesPerAccount, maxBytes: options.maxMiBPerAccount * 1024 * 1024)
        configuration.tripQuota = TripQuota(
            maxOwnedTrips: options.maxTripsPerAccount, maxBytesPerTrip: Int64(options.maxTripMiB) << 20)
        configuration.uploads = UploadSettings(
            blobDirectory: blobs.root.path, maxUploadBytes: Int64(options.maxUploadMiB) << 20,
            accountQuotaBytes: Int64(options.uploadQuotaMiB) << 20,
            expiry: TimeInterval(options.uploadExpiryHours) * 3600, maxChunkBytes: options.uploadChunkMiB << 20)
        configuration.history = HistoryRetention(
            keepEvery: TimeInterval(options.historyHours) * 3600,
            keepDaily: TimeInterval(options.historyDailyDays) * 86_400,
            keepWeekly: TimeInterval(options.historyWeeklyDays) * 86_400,
            accountBytes: options.historyMiBPerAccount * 1024 * 1024)
        var fileLock: DatabaseFileLock?
        if !options.usesPostgres {
            switch DatabaseFileLock.acquire(forDatabase: options.databasePath) {
            case .success(let lock): fileLock = lock
            case .failure(let failure): return fail(failure, database: options.databasePath)
            }
        }
        defer { fileLock?.release() }
        do {
            if options.usesPostgres {
                server = NotesServer(
                    storage: try await PostgresServerStorage.connect(
                        options.databasePath, changeNotifications: options.changeNotifications),
                    configuration: configuration)
            } else {
                server = NotesServer(
                    storage: try SQLiteServerStorage(path: options.databasePath, groupCommit: options.groupCommit),
                    configuration: configuration)
            }
        } catch {
            let advice =
                options.usesPostgres
                ? "check that PostgreSQL is running there, the user and database exist, and the "
                    + "password is in PGPASSWORD or ~/.pgpass"
                : "check the path and permissions, or pass another file with --db"
            return fail("cannot open database \(options.databasePath): \(error); \(advice)")
        }
        let retention = TimeInterval(options.tombstoneDays) * 86_400
        do {
            // Old tombstones go before the first request is served; history waits for the pass
            // beside serving.
            try await server.runBackgroundWork(
                olderThan: Date().addingTimeInterval(-retention), pruningHistory: false)
        } catch {
            await server.shutDown()
            return fail("cannot purge old tombstones in \(options.databasePath): \(error)")
        }
        let host: MicroHTTPServer
        do {
            host = try MicroHTTPServer(
                core: server, host: options.host, port: options.port,
                limits: MicroHTTPLimits(
                    maxConnections: options.maxConnections,
                    connectionsPerAddress: options.connectionsPerAddress,
                    requestDeadlineSeconds: options.requestDeadline,
                    idleTimeoutSeconds: options.idleTimeout, threads: options.httpThreads),
                tls: tls)
        } catch {
            await server.shutDown()
            return fail("\(error)")
        }
        let signals = TerminationSignals()
        writeOut("quire-server listening on \(host.baseURL.absoluteString)\n")

        // The background work (see NotesServer.runBackgroundWork) runs beside serving, from the
        // start and then hourly: in bounded batches, so it never holds up a write, and on one
        // instance at a time when several share a PostgreSQL database.
        let background = Task {
            while !Task.isCancelled {
                do {
                    try await server.runBackgroundWork(olderThan: Date().addingTimeInterval(-retention))
                } catch is CancellationError {
                    return
                } catch {
                    NotesServer.logToStandardError("background work failed: \(error)")
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        await signals.wait()
        background.cancel()
        await host.stop()
        return 0
    }

    /// A SQLite file another server serves (exit 75, try again once it stops), or whose lock
    /// cannot be taken (exit 1).
    private static func fail(_ failure: DatabaseFileLock.Failure, database: String) -> Int32 {
        switch failure {
        case .held(let pid):
            let holder = pid.map { "another quire-server (pid \($0))" } ?? "another quire-server"
            return fail(
                "\(holder) is serving \(database); stop it first, or pass another file with --db "
                    + "(several instances share one database with --db postgres://USER@HOST:PORT/DB)",
                status: 75)
        case .unusable(let reason):
            return fail(
                "cannot lock \(DatabaseFileLock.path(forDatabase: database)): \(reason); check the directory's "
                    + "permissions, or pass another file with --db")
        }
    }

    /// Why a metrics token file cannot be used: the message and the exit status.
    private struct TokenFileFailure: Error {
        let message: String
        let status: Int32
    }

    /// The first line of `file`, trimmed: 66 when it cannot be read, 64 when it holds no token.
    private static func readMetricsToken(_ file: String) -> Result<String, TokenFileFailure> {
        guard let data = FileManager.default.contents(atPath: file) else {
            return .failure(
                TokenFileFailure(
                    message: "cannot read --metrics-token-file \(file): check the path and that the "
                        + "server's user may read it", status: 66))
        }
        let line = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        let token = line.trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else {
            return .failure(
                TokenFileFailure(
                    message: "--metrics-token-file \(file) is empty: write the token on its first line "
                        + "(for one: openssl rand -hex 32)", status: 64))
        }
        return .success(token)
    }

    // MARK: - Output

    private static func writeOut(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    private static func fail(_ message: String, status: Int32 = 1) -> Int32 {
        FileHandle.standardError.write(Data("quire-server: \(message)\n".utf8))
        return status
    }
}
