import Foundation
import QuireClient

// MARK: - Explaining a server that could not be used

extension QuireCommandLine {
    /// Runs an account request against `url`; an ``AccountError`` that could mean the URL is wrong
    /// (no answer, an answer that is not Quire's) is explained by probing the URL under `trust`.
    func talking<T>(to url: URL, trust: ServerTrust, _ request: () async throws -> T) async throws -> T {
        do {
            return try await request()
        } catch let error as AccountError {
            if error == .untrustedCertificate {
                throw CLIError(
                    code: .config,
                    message: Self.untrustedCertificate + verbosely([Self.rawDetail(of: error)].compactMap { $0 }),
                    hint: "")
            }
            let suspicious: [AccountError] = [.unreachable, .transient, .refused, .invalidResponse]
            if suspicious.contains(error),
                let explained = await explainServer(at: url, trust: trust, raw: Self.rawDetail(of: error))
            {
                throw explained
            }
            throw CLIError(code: Self.exitCode(for: error), message: describe(error), hint: "")
        }
    }

    /// What to say when the server's certificate did not verify, at sign-in.
    static let untrustedCertificate =
        "the server's certificate is not trusted: pass --ca-file CA.pem for a self-hosted server"

    /// Why `url` could not be used, as a CLI error; nil when a Quire server answers there (the
    /// failure was its answer, and the caller's own message says more). `signedIn`: the advice
    /// for an untrusted certificate is to sign in again with the CA, not to pass it now.
    func explainServer(at url: URL, trust: ServerTrust, raw: String?, signedIn: Bool = false) async -> CLIError? {
        let finding = await ServerProbe(trust: trust).probe(url)
        let address = url.absoluteString
        let message: String
        var code = ExitCode.unavailable
        switch finding {
        case .quire:
            return nil
        case .nothingListening:
            let port = url.port.map { " --port \($0)" } ?? ""
            message =
                "nothing is listening at \(address). Is quire-server running? Start it with: "
                + "quire-server\(port) (or check the URL)"
        case .unknownHost:
            message = "cannot find the host \(url.host ?? address); check the URL"
        case .plainHTTP(let plain):
            message =
                "\(address) does not speak HTTPS: the server there answers plain HTTP. Use \(plain.absoluteString)"
        case .untrustedCertificate:
            code = .config
            message =
                signedIn
                ? "the server's certificate is not trusted: for a self-hosted server, sign in again with its CA: "
                    + "quire login \(address) USER --ca-file CA.pem"
                : Self.untrustedCertificate
        case .unusableCAFile(let problem):
            code = .ioError
            message = "\(problem) Sign in again with the server's CA: quire login \(address) USER --ca-file CA.pem"
        case .notQuire:
            message = "\(address) is not a Quire server (no /v1/health). Check the URL and port"
        case .noAnswer:
            code = .tempFail
            message = "\(address) did not answer; nothing is lost, try again later"
        }
        var details = [raw]
        if case .noAnswer(let detail) = finding { details.append(detail) }
        return CLIError(code: code, message: message + verbosely(details.compactMap { $0 }), hint: "")
    }

    /// An account error for people: its message, and under `--verbose` its raw codes.
    func describe(_ error: AccountError) -> String {
        error.message + verbosely([Self.rawDetail(of: error)].compactMap { $0 })
    }

    /// ` [details]` under `--verbose`; nothing otherwise.
    func verbosely(_ details: [String]) -> String {
        guard verbose, !details.isEmpty else { return "" }
        return " [" + details.joined(separator: "; ") + "]"
    }

    /// HTTP status, server code and network error of an account error, for `--verbose`.
    static func rawDetail(of error: AccountError) -> String? {
        var parts: [String] = []
        if let status = error.status { parts.append("HTTP \(status)" + (error.code.map { " \($0)" } ?? "")) }
        if let detail = error.detail { parts.append(detail) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// A sync failure's message without the raw codes the engine appends ("(HTTP 503, …)",
    /// "(-1001)"), which only `--verbose` shows.
    static func withoutRawCodes(_ message: String) -> String {
        var text = Substring(message)
        let period = text.hasSuffix(").")
        if period { text = text.dropLast() }
        guard text.hasSuffix(")"), let open = text.range(of: " (", options: .backwards) else { return message }
        let inside = text[open.upperBound..<text.index(before: text.endIndex)]
        guard inside.hasPrefix("HTTP ") || Int(inside) != nil else { return message }
        return String(text[..<open.lowerBound]) + (period ? "." : "")
    }
}
