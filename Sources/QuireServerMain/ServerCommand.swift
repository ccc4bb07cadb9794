import Foundation

/// What `quire-server` was asked to do, parsed from its arguments.
enum ServerCommand: Equatable {
    struct ServeOptions: Equatable {
        var host = "127.0.0.1"
        var port: UInt16 = 8080
        var databasePath = "./quire-server.sqlite"
        var tombstoneDays = 30
        var accessTokenTTL = 900
        var sessionIdleDays = 60
        var sessionMaxDays = 365
        var minKDFIterations = 100_000
        var authHashIterations = 100_000
        var maxConnections = 10_000
        var connectionsPerAddress = 128
        var requestDeadline = 30
        var idleTimeout = 60
        var httpThreads = 2
        var longPollsPerAccount = 64
        var historyHours = 24
        var historyDailyDays = 30
        var historyWeeklyDays = 365
        var historyMiBPerAccount = 256
        /// `--tls-cert` and `--tls-key`: serve HTTPS with this certificate chain and key (PEM files).
        var tlsCertificateFile: String?
        var tlsKeyFile: String?
        /// `--metrics-token-file`: the file holding the token `/metrics` requires from any client.
        var metricsTokenFile: String?
        var liveUpdateRecheck = 2
        var backgroundBatch = 500
        var changeNotifications = true
        /// `--group-commit`: on SQLite, concurrent note writes share one commit (one fsync).
        var groupCommit = true
        /// `--trusted-proxy`: peers whose `X-Forwarded-For` names the client.
        var trustedProxies: [String] = []
        var registrationBurst = 10
        var registrationInterval = 60
        var maxNotesPerAccount = 100_000
        var maxMiBPerAccount = 1024
        var maxTripsPerAccount = 100
        var maxTripMiB = 8
        /// `--blobs`: the uploads' directory; nil for the default beside the database.
        var blobsDirectory: String?
        var maxUploadMiB = 1024
        var uploadQuotaMiB = 10_240
        var uploadExpiryHours = 24
        var uploadChunkMiB = 8

        /// `--db` names a PostgreSQL database (a libpq URI) rather than a SQLite file.
        var usesPostgres: Bool { ServerCommand.isPostgresURI(databasePath) }

        /// `--blobs`, or the default: beside the SQLite file, named after it
        /// (`./quire-server.sqlite` keeps its uploads in `./quire-server-blobs`); on PostgreSQL,
        /// `./quire-server-blobs`.
        var resolvedBlobsDirectory: String {
            if let blobsDirectory { return blobsDirectory }
            guard !usesPostgres else { return "./quire-server-blobs" }
            let database = URL(fileURLWithPath: databasePath)
            let name = database.deletingPathExtension().lastPathComponent
            return database.deletingLastPathComponent().appendingPathComponent(name + "-blobs").path
        }
    }

    case serve(ServeOptions)
    case help

    static let usage = """
        Usage:
          quire-server [--host H] [--port P] [--db FILE | --db postgres://USER@HOST:PORT/DB]
                       [--tombstone-days N]
                       [--access-token-ttl SECONDS] [--session-idle-days N]
                       [--session-max-days N] [--min-kdf-iterations N]
                       [--auth-hash-iterations N] [--max-connections N]
                       [--connections-per-address N] [--request-deadline SECONDS]
                       [--idle-timeout SECONDS] [--http-threads N]
                       [--long-polls-per-account N]
                       [--live-update-recheck SECONDS] [--change-notifications on|off]
                       [--group-commit on|off]
                       [--history-hours N] [--history-daily-days N]
                       [--history-weekly-days N] [--history-mib-per-account N]
                       [--background-batch N]
                       [--tls-cert FILE --tls-key FILE] [--metrics-token-file FILE]
                       [--trusted-proxy ADDR[,ADDR...]]...
                       [--registration-burst N] [--registration-interval SECONDS]
                       [--max-notes-per-account N] [--max-mib-per-account N]
                       [--max-trips-per-account N] [--max-trip-mib N]
                       [--blobs DIR] [--max-upload-mib N] [--upload-quota-mib N]
                       [--upload-expiry-hours N] [--upload-chunk-mib N]
          quire-server --help

        Serves Quire's sync API v1 over HTTP, or over HTTPS with --tls-cert and --tls-key. Apple's
        devices refuse plain HTTP, and clients refuse it to any address but loopback: on a network,
        serve HTTPS here or behind a TLS reverse proxy (docs/deploying.md). People create accounts
        and sign in from a client (`quire`), through POST /v1/accounts and POST /v1/sessions.

        Options:
          --host H                     address to listen on (default 127.0.0.1; 0.0.0.0 for every
                                       interface)
          --port P                     port to listen on, 0 for any free one (default 8080)
          --db FILE                    the SQLite database file (default ./quire-server.sqlite)
          --db postgres://USER@HOST:PORT/DB
                                       a PostgreSQL database instead (a libpq connection URI;
                                       any number of instances may share it). The password
                                       comes from PGPASSWORD or ~/.pgpass, never from the URI.
          --group-commit on|off        SQLite: note writes that arrive together share one
                                       transaction and one flush to disk, each answered only
                                       after it is durable (default on); off: one commit each
          --tombstone-days N           keep deleted notes' tombstones N days (default 30); clients
                                       whose cursor is older resync in full
          --access-token-ttl SECONDS   how long an access token works (default 900)
          --session-idle-days N        sign a device out when it has not refreshed its tokens
                                       for N days (default 60): it signs in again
          --session-max-days N         sign every device out N days after it signed in, in use
                                       or not (default 365)
          --min-kdf-iterations N       the fewest PBKDF2 iterations a client may register with
                                       (default 100000; lower only for tests and demos)
          --auth-hash-iterations N     PBKDF2 iterations of the server's hash of each auth key
                                       (default 100000; lower only for tests and demos)
          --max-connections N          connections open at once, long-polls included (default
                                       10000; lowered to fit the open-files limit)
          --connections-per-address N  connections one client address may hold (default 128;
                                       0 for no cap)
          --request-deadline SECONDS   a request must arrive whole (headers and body) within this
                                       of its connection opening or its previous answer, or the
                                       connection is closed (default 30)
          --idle-timeout SECONDS       close a connection silent this long (default 60)
          --http-threads N             event-loop threads serving connections (default 2)
          --long-polls-per-account N   long-polls one account may hold; one more answers at once
                                       with Retry-After (default 64)
          --tls-cert FILE              serve HTTPS (TLS 1.2 and 1.3) with this certificate: PEM, the
                                       server's certificate first, then any intermediates (as a
                                       fullchain.pem); needs --tls-key
          --tls-key FILE               the certificate's private key: PEM, not encrypted; keep it
                                       readable only by the server's user
          --metrics-token-file FILE    GET /metrics then needs 'Authorization: Bearer TOKEN',
                                       TOKEN being the file's first line, from any client,
                                       loopback too (a file, so the token is not in the process
                                       list). Without it /metrics answers loopback clients only

        Abuse limits. The client's address is the connection's peer, unless that peer is a
        trusted proxy: then it is the last address in X-Forwarded-For that is not a trusted proxy.
        Failed sign-ins slow a username on one address (3 free, then 1 s doubling up to 15 min)
        and an address (20 free, likewise), never the owner on another address; failures are
        forgotten after a quiet hour.
          --trusted-proxy ADDR[,ADDR...]
                                       a reverse proxy's address as the server sees it
                                       (127.0.0.1); repeat or list with commas (default none:
                                       X-Forwarded-For is ignored)
          --registration-burst N       accounts one address may register at once (default 10)
          --registration-interval SECONDS
                                       then one more every SECONDS (default 60)
          --max-notes-per-account N    live notes one account may keep (default 100000)
          --max-mib-per-account N      note payload MiB one account may keep (default 1024);
                                       a write past either answers 403 quota_exceeded
          --max-trips-per-account N    trips one account may own (default 100)
          --max-trip-mib N             MiB of sealed values one trip may hold (default 8;
                                       a trip of 500 items holds about 0.25); a trip or an
                                       ops request past either answers 403 quota_exceeded

        Live updates across instances (PostgreSQL): a write on one instance wakes the long-polls
        of its account on every instance within milliseconds, through LISTEN/NOTIFY on a
        connection each instance keeps for it. Polls also read their feed again on their own,
        so a lost notification delays an answer at most one re-check.
          --live-update-recheck SECONDS
                                       how often a waiting long-poll reads its feed again on
                                       its own (default 2)
          --change-notifications on|off
                                       off: no LISTEN/NOTIFY (for a connection pooler that
                                       cannot carry them); other instances' changes then arrive
                                       at the re-check (default on)

        History and trash: the server keeps earlier versions of every note (ciphertext only, as
        sent) and a deleted note's last text until its tombstone is purged (--tombstone-days).
        By default it keeps every version for 24 hours, then one a day for 30 days, then one a
        week for a year, and at most 256 MiB of them per account, the oldest pruned first. It
        prunes hourly, in small batches that never hold up writes.
          --history-hours N            keep every version N hours (default 24)
          --history-daily-days N       then the last version of each day until N days old
                                       (default 30)
          --history-weekly-days N      then the last version of each week until N days old
                                       (default 365); older versions go
          --history-mib-per-account N  the most earlier versions one account keeps, in MiB
                                       (default 256); the oldest go first

        Photos: devices seal each photo before it leaves them and upload the ciphertext with
        tus 1.0 (resumable: an upload cut off goes on from the last confirmed offset), under
        /v1/trips/{id}/uploads. The server keeps the bytes as files in a directory, confirming
        each chunk only after it is on disk.
          --blobs DIR                  the uploads' directory (default: beside the database, as
                                       ./quire-server-blobs for ./quire-server.sqlite; on
                                       PostgreSQL ./quire-server-blobs). Instances sharing a
                                       PostgreSQL database share one directory (a volume they
                                       all mount)
          --max-upload-mib N           the largest upload, in MiB (default 1024)
          --upload-quota-mib N         the MiB of uploads one account may keep, finished or
                                       not (default 10240); past it 403 quota_exceeded
          --upload-expiry-hours N      an unfinished upload is removed N hours after its last
                                       chunk (default 24)
          --upload-chunk-mib N         the largest body of one PATCH, held in memory until it
                                       is whole (default 8); larger files go in several

        Background work (tombstone purges, idempotency-record expiry, expired uploads, history
        pruning, revoked and ended sessions) runs at start and hourly, in bounded batches, each its own short transaction;
        on PostgreSQL one instance at a time runs it (an advisory lock).
          --background-batch N         the most rows of each kind one batch deletes
                                       (default 500)

        Exit status: 0 success, 64 usage error (a certificate or key that cannot be used, or an
        empty metrics token, included), 66 a --tls-cert, --tls-key or --metrics-token-file file
        that cannot be read, 75 a SQLite file another quire-server is serving (each holds
        FILE.lock while it runs), 1 any other failure
        (port in use, unreadable database); the message on stderr says what to do.
        """

    /// Parses the arguments after the program name. Throws ``UsageError`` for anything unknown.
    static func parse(_ arguments: [String]) throws(UsageError) -> ServerCommand {
        if arguments.contains("--help") || arguments.contains("-h") { return .help }
        var remaining = arguments[...]
        if remaining.first == "add-account" {
            throw UsageError(
                "add-account was removed: create accounts from a client (quire), which registers "
                    + "through POST /v1/accounts")
        }
        var options = ServeOptions()
        try parseFlags(
            &remaining, into: &options,
            allowed: Set(numberFlags.keys).union(
                [
                    "--host", "--port", "--db", "--tls-cert", "--tls-key", "--change-notifications",
                    "--group-commit",
                    "--metrics-token-file",
                    "--trusted-proxy", "--blobs",
                ]))
        guard (options.tlsCertificateFile == nil) == (options.tlsKeyFile == nil) else {
            throw UsageError(
                "--tls-cert and --tls-key go together: give both (the certificate and its private key, "
                    + "PEM files) to serve HTTPS, or neither to serve plain HTTP")
        }
        return .serve(options)
    }

    /// The whole-number options: their smallest and largest value, and where each goes.
    private static var numberFlags: [String: (ClosedRange<Int>, WritableKeyPath<ServeOptions, Int>)] {
        [
            "--tombstone-days": (1...36_500, \.tombstoneDays),
            "--access-token-ttl": (1...86_400, \.accessTokenTTL),
            "--session-idle-days": (1...36_500, \.sessionIdleDays),
            "--session-max-days": (1...36_500, \.sessionMaxDays),
            "--min-kdf-iterations": (1...100_000_000, \.minKDFIterations),
            "--auth-hash-iterations": (1...100_000_000, \.authHashIterations),
            "--max-connections": (1...1_000_000, \.maxConnections),
            "--connections-per-address": (0...1_000_000, \.connectionsPerAddress),
            "--request-deadline": (1...3_600, \.requestDeadline),
            "--idle-timeout": (1...86_400, \.idleTimeout),
            "--http-threads": (1...64, \.httpThreads),
            "--long-polls-per-account": (1...1_000_000, \.longPollsPerAccount),
            "--history-hours": (0...87_600, \.historyHours),
            "--history-daily-days": (0...36_500, \.historyDailyDays),
            "--history-weekly-days": (0...36_500, \.historyWeeklyDays),
            "--history-mib-per-account": (0...1_048_576, \.historyMiBPerAccount),
            "--live-update-recheck": (1...3_600, \.liveUpdateRecheck),
            "--background-batch": (1...100_000, \.backgroundBatch),
            "--registration-burst": (1...1_000_000, \.registrationBurst),
            "--registration-interval": (1...86_400, \.registrationInterval),
            "--max-notes-per-account": (1...100_000_000, \.maxNotesPerAccount),
            "--max-mib-per-account": (1...1_048_576, \.maxMiBPerAccount),
            "--max-trips-per-account": (1...1_000_000, \.maxTripsPerAccount),
            "--max-trip-mib": (1...1_048_576, \.maxTripMiB),
            "--max-upload-mib": (1...1_048_576, \.maxUploadMiB),
            "--upload-quota-mib": (1...1_073_741_824, \.uploadQuotaMiB),
            "--upload-expiry-hours": (1...8_760, \.uploadExpiryHours),
            "--upload-chunk-mib": (1...64, \.uploadChunkMiB),
        ]
    }

    private static func parseFlags(
        _ arguments: inout ArraySlice<String>, into options: inout ServeOptions,
        allowed: Set<String>
    ) throws(UsageError) {
        while let argument = arguments.popFirst() {
            var flag = argument
            var value: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                flag = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard allowed.contains(flag) else {
                throw UsageError(
                    argument.hasPrefix("-") ? "unknown option \(flag)" : "unexpected '\(argument)'")
            }
            guard let text = value ?? arguments.popFirst() else {
                throw UsageError("\(flag) needs a value")
            }
            switch flag {
            case "--host":
                guard !text.isEmpty else { throw UsageError("--host needs an address") }
                options.host = text
            case "--port":
                guard let port = UInt16(text) else {
                    throw UsageError("--port must be a number from 0 to 65535, not '\(text)'")
                }
                options.port = port
            case "--db":
                guard !text.isEmpty else { throw UsageError("--db needs a file path") }
                if isPostgresURI(text), hasPassword(text) {
                    throw UsageError(
                        "--db must not carry a password (any user could read it from the process "
                            + "list): put it in PGPASSWORD or ~/.pgpass and pass "
                            + "postgres://USER@HOST:PORT/DB")
                }
                options.databasePath = text
            case "--tls-cert", "--tls-key":
                guard !text.isEmpty else { throw UsageError("\(flag) needs a file path") }
                if flag == "--tls-cert" { options.tlsCertificateFile = text } else { options.tlsKeyFile = text }
            case "--blobs":
                guard !text.isEmpty else { throw UsageError("--blobs needs a directory") }
                options.blobsDirectory = text
            case "--metrics-token-file":
                guard !text.isEmpty else { throw UsageError("--metrics-token-file needs a file path") }
                options.metricsTokenFile = text
            case "--trusted-proxy":
                let proxies = text.split(separator: ",", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard !proxies.isEmpty, proxies.allSatisfy(isAddress) else {
                    throw UsageError(
                        "--trusted-proxy needs IP addresses as the server sees the proxy (127.0.0.1, ::1), "
                            + "separated by commas, not '\(text)'")
                }
                options.trustedProxies += proxies
            case "--change-notifications":
                guard text == "on" || text == "off" else {
                    throw UsageError("--change-notifications must be on or off, not '\(text)'")
                }
                options.changeNotifications = text == "on"
            case "--group-commit":
                guard text == "on" || text == "off" else {
                    throw UsageError("--group-commit must be on or off, not '\(text)'")
                }
                options.groupCommit = text == "on"
            default:
                guard let (range, field) = numberFlags[flag], let number = Int(text),
                    range.contains(number)
                else {
                    let range = numberFlags[flag]?.0 ?? 0...0
                    throw UsageError(
                        "\(flag) must be a whole number from \(range.lowerBound) to "
                            + "\(range.upperBound), not '\(text)'")
                }
                options[keyPath: field] = number
            }
        }
    }
}

extension ServerCommand {
    /// Whether `--db`'s value is a libpq connection URI.
    static func isPostgresURI(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Whether `text` is a numeric IPv4 or IPv6 address.
    static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    /// Whether a connection URI has a password in its user part (`user:password@`).
    static func hasPassword(_ uri: String) -> Bool {
        guard let scheme = uri.range(of: "://") else { return false }
        let authority = uri[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else {
            return uri.contains("password=")
        }
        return authority[..<at].contains(":") || uri.contains("password=")
    }
}

/// A command line `quire-server` does not understand: exit 64 with the usage.
struct UsageError: Error, Equatable {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}
