/// The patterns ``OpenAPIDocument`` states for the values the server checks by their decoded
/// size, so the document is exactly as strict as ``RequestValidation``.
extension OpenAPIDocument {
    /// Standard base64 (with padding, as `Data(base64Encoded:)` reads it) of `bytes.lowerBound`
    /// to `bytes.upperBound` bytes: for each remainder of the length by 3, the run of whole
    /// 4-character groups that reaches the range, then the padded tail.
    static func base64Pattern(bytes: ClosedRange<Int>) -> String {
        let symbol = "[A-Za-z0-9+/]"
        let alternatives = [(0, ""), (1, "\(symbol){2}=="), (2, "\(symbol){3}=")].compactMap {
            remainder, tail -> String? in
            let fewest = max(0, (bytes.lowerBound - remainder + 2) / 3)
            let most = (bytes.upperBound - remainder) / 3
            guard most >= fewest, fewest * 3 + remainder <= bytes.upperBound else { return nil }
            let groups = fewest == most ? "{\(fewest)}" : "{\(fewest),\(most)}"
            return "(?:\(symbol){4})\(groups)\(tail)"
        }
        return "^(?:" + alternatives.joined(separator: "|") + ")$"
    }

    static let authKeyPattern = base64Pattern(bytes: RequestValidation.authKeyBytes...RequestValidation.authKeyBytes)
    static let wrappedKeyPattern = base64Pattern(bytes: RequestValidation.wrappedKeyBytes)
    static let saltPattern = base64Pattern(bytes: RequestValidation.kdfSaltBytes)
    static let publicKeyPattern = base64Pattern(
        bytes: RequestValidation.publicKeyBytes...RequestValidation.publicKeyBytes)
    static let sealedKeyPattern = base64Pattern(bytes: RequestValidation.sealedKeyBytes)
    static let joinTokenPattern = base64Pattern(bytes: 32...32)
    static let chainedKeyPattern = base64Pattern(bytes: RequestValidation.chainedKeyBytes)

    /// The KDF iterations floor as the static document states it (the default of
    /// `--min-kdf-iterations`); ``json(minKDFIterations:)`` serves the configured one.
    static let kdfFloorMarker = 100_000

    /// The document with the server's configured floor of KDF iterations, as `GET
    /// /v1/openapi.json` serves it.
    static func json(minKDFIterations: Int) -> String {
        json.replacingOccurrences(
            of: #""minimum": \#(kdfFloorMarker), "maximum": 100000000"#,
            with: #""minimum": \#(minKDFIterations), "maximum": 100000000"#)
    }
}
