import QuireWire

/// The history routes' query parameters.
extension RequestValidation {
    /// `limit` of the history routes: 1 to ``WireRoutes/maxPageLimit``, default
    /// ``WireRoutes/defaultPageLimit``.
    static func historyLimit(_ request: HTTPRequest) throws(APIError) -> Int {
        guard let text = request.query["limit"] else { return WireRoutes.defaultPageLimit }
        guard let value = plainInteger(text), (1...WireRoutes.maxPageLimit).contains(value) else {
            throw .invalidLimit
        }
        return value
    }

    /// `before` of the versions route: a version number from 1, or nil.
    static func historyBefore(_ request: HTTPRequest) throws(APIError) -> Int? {
        guard let text = request.query["before"] else { return nil }
        guard let value = plainInteger(text), value >= 1 else { throw .invalidBefore }
        return value
    }
}
