import Foundation

/// The one JSON printer: what every `--json` prints and every JSON file the library writes.
///
/// ISO 8601 dates, sorted keys, pretty printed, slashes unescaped (`JSONEncoder.liveTranscriber`).
public enum JSONText {
    /// `value` as the project's JSON text (no trailing newline).
    /// - Throws: `EncodingError` for a value JSON cannot hold (a non-finite number).
    public static func string(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder.liveTranscriber.encode(value), as: UTF8.self)
    }

    /// `value` as one line of JSON Lines (the activity feed, the draft journal): the same keys,
    /// dates and slashes as `string`, without line breaks or indentation.
    /// - Throws: `EncodingError` for a value JSON cannot hold (a non-finite number).
    public static func line(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
