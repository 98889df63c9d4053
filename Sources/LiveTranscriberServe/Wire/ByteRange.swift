import Foundation

/// Which bytes of a file a request's Range header asks for (RFC 9110, section 14), for serving
/// audio that a player seeks in.
public enum ByteRange: Sendable, Equatable {
    /// The whole file (no Range header, or one this server ignores: malformed, another unit,
    /// or several ranges, which RFC 9110 lets a server answer with the whole file).
    case whole
    /// Bytes `first` through `last`, both included, both within the file (a 206 answer).
    case part(first: UInt64, last: UInt64)
    /// A range that starts at or after the end of the file, or a suffix of zero bytes (a 416
    /// answer with `Content-Range: bytes */LENGTH`).
    case unsatisfiable

    /// The range `header` (the Range field's value, nil when absent) names in a file of `length` bytes.
    ///
    /// "bytes=0-0" is the first byte, "bytes=100-" everything from byte 100, "bytes=-1" the last
    /// byte; a last byte past the end is cut to the end. In an empty file every range is unsatisfiable.
    public static func parse(_ header: String?, length: UInt64) -> ByteRange {
        guard let header = header?.trimmingCharacters(in: .whitespaces) else { return .whole }
        let lowered = header.lowercased()
        guard lowered.hasPrefix("bytes=") else { return .whole }
        let spec = lowered.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let firstText = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let lastText = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        func number(_ text: String) -> UInt64? {
            guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return UInt64(text)
        }
        if firstText.isEmpty {
            // A suffix: the last N bytes.
            guard let count = number(lastText) else { return .whole }
            guard count > 0, length > 0 else { return .unsatisfiable }
            return .part(first: length - min(count, length), last: length - 1)
        }
        guard let first = number(firstText) else { return .whole }
        var last = length == 0 ? 0 : length - 1
        if !lastText.isEmpty {
            guard let given = number(lastText) else { return .whole }
            guard given >= first else { return .whole }
            last = min(given, last)
        }
        guard first < length else { return .unsatisfiable }
        return .part(first: first, last: last)
    }

    /// The Content-Range value of a 206 or 416 answer ("bytes 0-0/1000", "bytes */1000"); nil for `.whole`.
    public func contentRange(length: UInt64) -> String? {
        switch self {
        case .whole: return nil
        case .part(let first, let last): return "bytes \(first)-\(last)/\(length)"
        case .unsatisfiable: return "bytes */\(length)"
        }
    }
}
