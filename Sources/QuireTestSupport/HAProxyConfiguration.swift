/// An haproxy configuration for several `quire-server` instances on one database: the recipe of
/// docs/deploying.md ("Several instances behind a load balancer"), plus frontends that only a
/// test needs.
///
/// ``recipe`` is the part a deployment uses, word for word as the document shows it (a test
/// holds the two together): round robin over every instance, a health check on `/v1/health`,
/// timeouts longer than the longest long-poll, and a connection a dead instance refused tried
/// again on another. The rest pins a frontend to one instance (so a test knows which instance
/// each device reached) or cuts held requests early (so a test sees a long-poll cut by the
/// balancer).
public struct HAProxyConfiguration: Sendable {
    /// One `quire-server` instance: its name in haproxy (and in its stats) and its port on
    /// 127.0.0.1.
    public struct Instance: Sendable, Equatable {
        public var name: String
        public var port: Int

        public init(name: String, port: Int) {
            self.name = name
            self.port = port
        }
    }

    /// A frontend that reaches one instance only, with its own server timeout when set.
    public struct PinnedFrontend: Sendable, Equatable {
        public var name: String
        public var port: Int
        public var instance: Instance
        public var serverTimeoutSeconds: Int?

        public init(name: String, port: Int, instance: Instance, serverTimeoutSeconds: Int? = nil) {
            self.name = name
            self.port = port
            self.instance = instance
            self.serverTimeoutSeconds = serverTimeoutSeconds
        }
    }

    /// `timeout client` and `timeout server` of the recipe, in seconds: longer than the longest
    /// long-poll (`WireRoutes.maxWaitSeconds`, 30 s) with room for a slow answer.
    public static let timeoutSeconds = 65

    /// The port of the balanced frontend, the one devices use.
    public var port: Int
    /// The port of the stats page (`/stats`, `/stats;csv`).
    public var statsPort: Int
    public var instances: [Instance]
    public var pinned: [PinnedFrontend]
    /// `global`'s log line: `log stdout format raw local0` in a test (haproxy runs in the
    /// foreground and its output goes to a file), `log /dev/log local0` in a deployment.
    public var log: String

    public init(
        port: Int, statsPort: Int, instances: [Instance], pinned: [PinnedFrontend] = [],
        log: String = "log stdout format raw local0"
    ) {
        self.port = port
        self.statsPort = statsPort
        self.instances = instances
        self.pinned = pinned
        self.log = log
    }

    /// The whole file: `global` (its log line only: haproxy sizes `maxconn` from the open-files
    /// limit), then ``recipe``, then the pinned frontends.
    public var text: String {
        var text = "global\n    \(log)\n\n" + recipe
        for frontend in pinned {
            text += """

                frontend \(frontend.name)
                    bind 127.0.0.1:\(frontend.port)
                    default_backend \(frontend.name)

                backend \(frontend.name)
                    option httpchk GET /v1/health
                    http-check expect status 200

                """
            if let seconds = frontend.serverTimeoutSeconds { text += "    timeout server \(seconds)s\n" }
            text += "    server \(frontend.instance.name) 127.0.0.1:\(frontend.instance.port) check inter 1s\n"
        }
        return text
    }

    /// What a deployment runs after its `global` section: the defaults, the balanced frontend,
    /// the instances' backend and a stats page on loopback.
    ///
    /// - `timeout server` and `timeout client` (65 s) outlast the longest long-poll (`wait`
    ///   is at most 30 s) with room for a slow answer; `http-reuse` keeps connections to the
    ///   instances open between requests (the server closes one idle for `--idle-timeout`,
    ///   60 s).
    /// - `retries 3` with `option redispatch 1`: a connection an instance refused (it died, it
    ///   restarts) is tried again on another instance at once, before the health check has
    ///   marked it down. A request already sent is not retried by haproxy: the device resends
    ///   it with the same `Idempotency-Key`, which every instance answers alike.
    /// - The health check asks `/v1/health` every second and takes an instance out after two
    ///   failures, back after two successes.
    /// - Bodies are streamed, with no size limit here: the server answers 413 past its own
    ///   (4 MiB a note, `--upload-chunk-mib` a PATCH).
    /// - `option forwardfor` appends the client's address to `X-Forwarded-For`, which the
    ///   instances believe with `--trusted-proxy 127.0.0.1`.
    public var recipe: String {
        var text = """
            defaults
                mode http
                log global
                option httplog
                option forwardfor
                timeout connect 2s
                timeout client \(Self.timeoutSeconds)s
                timeout server \(Self.timeoutSeconds)s
                timeout http-request 30s
                timeout http-keep-alive 60s
                retries 3
                option redispatch 1

            frontend quire
                bind 127.0.0.1:\(port)
                default_backend quire_instances

            backend quire_instances
                balance roundrobin
                option httpchk GET /v1/health
                http-check expect status 200
                default-server check inter 1s fall 2 rise 2

            """
        for instance in instances {
            text += "    server \(instance.name) 127.0.0.1:\(instance.port)\n"
        }
        text += """

            frontend stats
                bind 127.0.0.1:\(statsPort)
                stats enable
                stats uri /stats
                stats refresh 5s

            """
        return text
    }
}
