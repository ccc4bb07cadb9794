import QuireWire

/// Turning requests into label values: route templates, a bounded set of methods, and escaping.
extension ServerMetrics {
    /// The route label for anything the router does not serve.
    static let otherLabel = "other"

    /// The paths served as they are, each its own template.
    static let fixedRoutes: Set<String> = [
        "/v1/health", "/v1/openapi.json", WireRoutes.changes, WireRoutes.accounts,
        WireRoutes.password, WireRoutes.sessions, WireRoutes.refreshSession,
        WireRoutes.currentSession, WireRoutes.trips, WireRoutes.trash, path, WireRoutes.batch,
        WireRoutes.recovery, WireRoutes.recoveryWrappedKey, WireRoutes.recoverPassword,
    ]

    /// The methods kept as their own label; any other becomes `other`, so made-up methods
    /// cannot create series.
    static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
    ]

    /// The route template `path` matches, as the OpenAPI document names it: `/v1/notes/{id}`
    /// for any note id (valid or not), `/v1/accounts/{username}/kdf` for any username,
    /// `/v1/trips/{id}` (and its `/ops`, `/changes`, `/uploads` and `/uploads/{upload}`) for any
    /// trip and upload id, and `other` for a path
    /// the router does not serve. Never returns a part of `path` that a client chose.
    static func routeTemplate(for path: String) -> String {
        if fixedRoutes.contains(path) { return path }
        if let sharing = SharingPath(path) { return sharing.template }
        if let rest = remainder(of: path, after: WireRoutes.notesPrefix), !hasSlash(rest) {
            return WireRoutes.notesPrefix + "{id}"
        }
        if let rest = remainder(of: path, after: WireRoutes.notesPrefix), rest.hasSuffix("/versions"),
            rest.utf8.count > "/versions".utf8.count, !hasSlash(rest.dropLast("/versions".count))
        {
            return WireRoutes.notesPrefix + "{id}/versions"
        }
        if let rest = remainder(of: path, after: WireRoutes.tripsPrefix) {
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
            let template = WireRoutes.tripsPrefix + "{id}"
            switch (parts.count, parts.last) {
            case (1, _): return template
            case (2, "ops"): return template + "/ops"
            case (2, "changes"): return template + "/changes"
            case (2, "uploads"): return template + "/uploads"
            case (3, _) where parts[1] == "uploads": return template + "/uploads/{upload}"
            default: return otherLabel
            }
        }
        if let id = remainder(of: path, after: WireRoutes.sessions + "/"), !id.isEmpty, !hasSlash(id) {
            return WireRoutes.sessions + "/{id}"
        }
        let accountsPrefix = WireRoutes.accounts + "/"
        if let rest = remainder(of: path, after: accountsPrefix), rest.hasSuffix("/kdf") {
            let name = rest.dropLast("/kdf".count)
            if !name.isEmpty, !hasSlash(name) { return accountsPrefix + "{username}/kdf" }
        }
        return otherLabel
    }

    /// `method` if it is a standard one, else `other`.
    static func methodLabel(_ method: String) -> String {
        knownMethods.contains(method) ? method : otherLabel
    }

    /// `value` escaped for a label value in the text format: backslash, double quote and line
    /// feed become `\\`, `\"` and `\n`.
    static func escapeLabelValue(_ value: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(value.utf8.count)
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The non-empty part of `path` after `prefix`, or nil. Counted in bytes: every request
    /// is labelled, and counting characters walks the whole path.
    private static func remainder(of path: String, after prefix: String) -> Substring? {
        guard path.utf8.count > prefix.utf8.count, path.hasPrefix(prefix) else { return nil }
        return path.dropFirst(prefix.count)
    }

    /// Whether `text` holds a "/" byte. Stricter than `contains(Character("/"))`, which walks
    /// grapheme clusters (the cost of every request's label) and misses a slash a combining mark
    /// follows: such a path is no template's, so its label is `other`.
    private static func hasSlash(_ text: Substring) -> Bool {
        text.utf8.contains(UInt8(ascii: "/"))
    }
}
