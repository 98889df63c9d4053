import Foundation

/// Why a URL is not a LiveTranscriber deep link.
public enum DeepLinkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not a URL at all.
    case malformed(String)
    /// The scheme is not `livetranscriber`.
    case wrongScheme(String?)
    /// The scheme is right but the destination is not one the app knows.
    case unknownDestination(String)
    /// A query item the destination does not take, or a bad value for one it does.
    case badQuery(String)

    public var description: String {
        switch self {
        case .malformed(let text): "'\(text)' is not a URL."
        case .wrongScheme(let scheme): "The link scheme '\(scheme ?? "")' is not 'livetranscriber'."
        case .unknownDestination(let host): "LiveTranscriber has no screen or action called '\(host)'."
        case .badQuery(let detail): "The link's query is not valid: \(detail)."
        }
    }
}

/// The `livetranscriber://` links the Live Activity and widgets open.
///
/// `livetranscriber://stop-recording[?session=ID]` stops and saves the current recording;
/// `record`, `recordings` and `settings` open those screens. No link deletes anything: a Lock
/// Screen is public, and nothing that destroys recorded audio is reachable from it.
///
/// ```swift
/// let link = try LiveTranscriberDeepLink(url: url)
/// if case .stopRecording = link, link.matches(currentSession: session.id) { session.stopAndSave() }
/// ```
public enum LiveTranscriberDeepLink: Sendable, Equatable, Hashable {
    /// Stop and save the recording `session` (an id); nil stops whichever recording is running.
    case stopRecording(session: String?)
    /// Open the record screen.
    case record
    /// Open the library.
    case recordings
    /// Open settings.
    case settings

    /// "livetranscriber".
    public static let scheme = "livetranscriber"

    /// One of each case, for tests and documentation.
    public static let examples: [LiveTranscriberDeepLink] = [
        .stopRecording(session: nil), .stopRecording(session: "rec-1"), .record, .recordings, .settings,
    ]

    /// The host part: "stop-recording", "record", "recordings", "settings".
    public var destination: String {
        switch self {
        case .stopRecording: "stop-recording"
        case .record: "record"
        case .recordings: "recordings"
        case .settings: "settings"
        }
    }

    /// The link as text, e.g. "livetranscriber://stop-recording?session=rec-1".
    public var urlString: String {
        var text = "\(Self.scheme)://\(destination)"
        if case .stopRecording(let session?) = self {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            text += "?session=" + (session.addingPercentEncoding(withAllowedCharacters: allowed) ?? session)
        }
        return text
    }

    /// The link as a URL.
    public var url: URL {
        // Built only from the scheme, a fixed host and a percent-encoded id: always a valid URL.
        URL(string: urlString)!
    }

    /// False for every link: none deletes audio or any other data.
    public var isDestructive: Bool {
        switch self {
        case .stopRecording, .record, .recordings, .settings: false
        }
    }

    /// Parses `url`.
    /// - Throws: `DeepLinkError` for another scheme, an unknown destination, a path, or a query
    ///   the destination does not take (only `stop-recording` takes `session`, once, non-empty).
    public init(url: URL) throws(DeepLinkError) {
        try self.init(string: url.absoluteString)
    }

    /// Parses a link given as text; see `init(url:)`.
    public init(string: String) throws(DeepLinkError) {
        guard let components = URLComponents(string: string), let scheme = components.scheme else {
            throw .malformed(string)
        }
        guard scheme.lowercased() == Self.scheme else { throw .wrongScheme(scheme) }
        let host = (components.host ?? "").lowercased()
        guard components.path.isEmpty || components.path == "/" else {
            throw .unknownDestination(host + components.path)
        }
        let items = components.queryItems ?? []
        switch host {
        case "stop-recording":
            var session: String?
            for item in items {
                guard item.name == "session" else { throw .badQuery("unknown item '\(item.name)'") }
                guard session == nil else { throw .badQuery("'session' given twice") }
                guard let value = item.value, !value.isEmpty else { throw .badQuery("'session' is empty") }
                session = value
            }
            self = .stopRecording(session: session)
        case "record", "recordings", "settings":
            if let item = items.first { throw .badQuery("'\(host)' takes no '\(item.name)'") }
            self = host == "record" ? .record : host == "recordings" ? .recordings : .settings
        default:
            throw .unknownDestination(host)
        }
    }

    /// Whether this link may act on the recording `currentSession` (nil: nothing is recording).
    ///
    /// A stop link naming a session only matches that session, so a link left on an old Live
    /// Activity cannot stop a newer recording; a stop link naming none matches any recording;
    /// other links always match.
    public func matches(currentSession: String?) -> Bool {
        switch self {
        case .stopRecording(let session):
            guard let currentSession else { return false }
            return session == nil || session == currentSession
        case .record, .recordings, .settings:
            return true
        }
    }
}
