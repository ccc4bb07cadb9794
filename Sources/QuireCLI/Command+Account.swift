// MARK: - The account commands

extension Command {
    static let account: [Command] = [
        Command(
            name: "register", group: .account, summary: "first device: create an account and sign this device in",
            usage: "register URL USER [--password-stdin] [--device-name NAME] [--ca-file FILE] [--insecure-http]",
            options: [.passwordStdin, .deviceName, .caFile, .insecureHTTP, .verbose],
            examples: [
                "quire register https://notes.example.com alice",
                "quire register https://192.168.1.20:8443 alice --ca-file home-ca.pem",
            ],
            details: "Asks for a new password twice on the terminal: at least 10 characters, not a common one "
                + "(a few unrelated words work well). Shows a recovery key once: keep it, because a forgotten "
                + "password without it means the notes cannot be read by anyone. Notes made before signing "
                + "in join the account. " + Self.serverTrustDetails,
            run: { try await $0.register($1) }),
        Command(
            name: "login", group: .account, summary: "every other device: sign in to the account",
            usage: "login URL USER [--password-stdin] [--device-name NAME] [--ca-file FILE] [--insecure-http]",
            options: [.passwordStdin, .deviceName, .caFile, .insecureHTTP, .verbose],
            examples: ["quire login https://notes.example.com alice"], details: Self.serverTrustDetails,
            run: { try await $0.login($1) }),
        Command(
            name: "logout", group: .account, summary: "sign out and erase this device's notes",
            usage: "logout [--force]",
            options: [
                CommandOption("force", "don't ask, even when some changes haven't synced"), .verbose,
            ],
            examples: ["quire logout"],
            details: "Asks first when some changes haven't synced. The account keeps every synced note.",
            run: { try await $0.logout($1) }),
        Command(
            name: "passwd", group: .account,
            summary: "change the password (re-wraps the notes key; other devices sign in again)",
            usage: "passwd [--password-stdin]", options: [.passwordStdin, .verbose],
            examples: [
                "quire passwd", "printf 'old password\\nfour unrelated words\\n' | quire passwd --password-stdin",
            ],
            details: "With --password-stdin: the current password, then the new one, one per line. "
                + "The recovery key keeps working.",
            run: { try await $0.passwd($1) }),
        Command(
            name: "recover", group: .account,
            summary: "forgot the password: set a new one with the recovery key (other devices sign in again)",
            usage: "recover URL USER [--password-stdin] [--device-name NAME] [--ca-file FILE] [--insecure-http]",
            options: [.passwordStdin, .deviceName, .caFile, .insecureHTTP, .verbose],
            examples: [
                "quire recover https://notes.example.com alice",
                "printf 'KEY\\nfour unrelated words\\n' | quire recover https://notes.example.com alice --password-stdin",
            ],
            details: "Asks for the recovery key shown at registration (a typo is caught before anything is "
                + "sent), then a new password twice. Signs this device in and every other device out; the "
                + "recovery key keeps working. With --password-stdin: the key, then the new password, one per line. "
                + Self.serverTrustDetails,
            run: { try await $0.recover($1) }),
        Command(
            name: "recovery-key", group: .account,
            summary: "make a new recovery key (shown once; the old one stops working)",
            usage: "recovery-key [--password-stdin]", options: [.passwordStdin, .verbose],
            examples: ["quire recovery-key"],
            details: "For an account made before recovery keys, or one whose key was lost or seen by someone "
                + "else. Asks for the current password.",
            run: { try await $0.recoveryKey($1) }),
        Command(
            name: "sessions", group: .account,
            summary: "the account's signed-in devices; sign one out (a lost phone) with revoke",
            usage: "sessions [revoke ID] [--json]", options: [.json, .verbose],
            examples: ["quire sessions", "quire sessions revoke 3f9c"],
            details: """
                Lists each signed-in device: its session id, name, when it signed in and when it was
                last used (its last token refresh, every 15 minutes while in use). revoke ID signs that
                device out at once (ID may be the start of the id): its next sync is refused and it must
                sign in again with the password. The server also ends a session unused for 60 days, and
                every session a year after it signed in (its own settings may differ). --json: an array
                of {id, deviceName, createdAt, lastUsedAt, current}.
                """,
            run: { try await $0.sessions($1) }),
    ]

    /// What `register` and `login` say about https, --ca-file and --insecure-http.
    static let serverTrustDetails =
        "The URL is https:// (plain http:// only to this machine: 127.0.0.1, ::1, localhost). A self-hosted "
        + "server's own certificate authority is given with --ca-file; this device keeps it and every later "
        + "sync trusts only it."
}
