import LiveTranscriberLinux

/// One route of `livetranscriber serve`: the methods and path it answers, who may call it, what
/// it does in one line, and the handler. `LibraryWebAPI.routes` declares every route once; that
/// list drives dispatch, the 404 and 405 answers (`WebRouter`) and docs/serve.md's route table
/// (`WebRouter.markdownTable`, checked by `WebRouteTests`).
struct WebRoute: Sendable {
    /// Who may call a route. `WebAccess` enforces it on every request before routing (so a path
    /// that is no route gets 401 or 403 first, as any other); `caller` says which rule applies
    /// here, and a test checks the two agree.
    enum Caller: Sendable, Equatable {
        /// The token: the `lt_token` cookie, `?token=` (reading methods only) or `Authorization: Bearer`.
        case tokenHolder
        /// The token, and again in the `X-LiveTranscriber-Token` header (or `Authorization: Bearer` for both).
        case tokenHolderWithHeader

        /// The doc table's cell.
        var text: String {
            switch self {
            case .tokenHolder: return "token"
            case .tokenHolderWithHeader: return "token + header"
            }
        }
    }

    /// A part of the server a route needs; where the server was made without it, the route is
    /// not served (404, as for a path that is no route).
    enum Service: Sendable, Equatable { case live, importer, retranscriber }

    /// What another method on this route's path gets.
    enum OtherMethods: Sendable, Equatable {
        /// 405, "METHOD is not allowed on PATH".
        case notAllowed
        /// 404, as for a path that is no route (`/api/import`, `/v1/audio/transcriptions` always answered so).
        case notFound
    }

    typealias Handler = @Sendable (LibraryWebAPI, WebRequest, RoutePath) -> WebResponse

    /// "GET", "HEAD", "POST", "DELETE": exactly as the request line says them.
    let methods: [String]
    let pattern: RoutePattern
    let caller: Caller
    /// One line for docs/serve.md's route table (Markdown).
    let summary: String
    let service: Service?
    let otherMethods: OtherMethods
    let handler: Handler

    /// - Parameters:
    ///   - methods: the methods it answers.
    ///   - path: the pattern, "/api/recordings/{id}/export/{format}": `{name}` takes one path segment (possibly empty).
    ///   - caller: who may call it.
    ///   - service: what it needs of the server; nil for nothing.
    ///   - otherMethods: what the path's other methods get.
    ///   - summary: one line saying what it answers.
    init(_ methods: [String], _ path: String, _ caller: Caller, needs service: Service? = nil,
         otherMethods: OtherMethods = .notAllowed, _ summary: String, handler: @escaping Handler) {
        self.methods = methods
        self.pattern = RoutePattern(path)
        self.caller = caller
        self.summary = summary
        self.service = service
        self.otherMethods = otherMethods
        self.handler = handler
    }
}

/// A path pattern such as "/api/recordings/{id}/audio": literal segments and `{name}` parameters,
/// matched segment by segment against a request's path split at every "/".
struct RoutePattern: Sendable, Equatable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    /// The pattern as declared.
    let description: String
    let segments: [Segment]

    init(_ text: String) {
        description = text
        segments = Self.parts(of: text).map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(part)
        }
    }

    /// A path's segments: "/" is [""], "/api/recordings/" is ["api", "recordings", ""].
    static func parts(of path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
    }

    /// The parameters' values when `parts` match, else nil.
    func match(_ parts: [String]) -> RoutePath? {
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal): guard literal == part else { return nil }
            case .parameter(let name): values[name] = part
            }
        }
        return RoutePath(values: values)
    }

    /// True when some path matches both patterns.
    func overlaps(_ other: RoutePattern) -> Bool {
        segments.count == other.segments.count && zip(segments, other.segments).allSatisfy { pair in
            if case .literal(let a) = pair.0, case .literal(let b) = pair.1 { return a == b }
            return true
        }
    }
}

/// The values of a matched path's parameters.
struct RoutePath: Sendable, Equatable {
    let values: [String: String]

    /// The value of parameter `name`, which the route's pattern declares (a route naming one it
    /// does not declare is a programming error, found by the test of that route).
    subscript(name: String) -> String {
        guard let value = values[name] else { preconditionFailure("the route's pattern has no {\(name)}") }
        return value
    }
}

/// Finds the route a request takes in a list of routes, or says why none does.
struct WebRouter: Sendable {
    enum Outcome {
        case route(WebRoute, RoutePath)
        /// 405: the path is a route's, the method is not; `allowed` are the methods its routes take,
        /// in declaration order, for the answer's `Allow` header (RFC 9110, 15.5.6).
        case notAllowed(allowed: [String])
        /// 404: no route has this path (or its service is missing, or it answers other methods so).
        case notFound
    }

    let routes: [WebRoute]

    /// The first route, in declaration order, whose pattern and method match and whose service is
    /// there; else 405 when such a route's path matches (and it says so); else 404.
    func resolve(method: String, path: String, provides: (WebRoute.Service) -> Bool) -> Outcome {
        let parts = RoutePattern.parts(of: path)
        var allowed: [String] = []
        for route in routes where route.service.map(provides) ?? true {
            guard let values = route.pattern.match(parts) else { continue }
            if route.methods.contains(method) { return .route(route, values) }
            if route.otherMethods == .notAllowed { allowed += route.methods.filter { !allowed.contains($0) } }
        }
        return allowed.isEmpty ? .notFound : .notAllowed(allowed: allowed)
    }

    /// docs/serve.md's route table: one row per route, in declaration order.
    func markdownTable() -> String {
        var lines = ["| method | path | who | what |", "|---|---|---|---|"]
        for route in routes {
            let methods = route.methods.map { "`\($0)`" }.joined(separator: ", ")
            lines.append("| \(methods) | `\(route.pattern)` | \(route.caller.text) | \(route.summary) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
