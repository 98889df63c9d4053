import Foundation
import LiveTranscriberCore

/// A `multipart/form-data` request body (RFC 7578) split into its parts, as OpenAI's
/// transcription API receives its file and fields.
public struct MultipartForm: Sendable, Equatable {
    /// One field or file.
    public struct Part: Sendable, Equatable {
        /// The `name` of its Content-Disposition.
        public var name: String
        /// The `filename`, for a file.
        public var fileName: String?
        /// Its Content-Type, if given.
        public var contentType: String?
        /// Its bytes.
        public var data: Data
    }

    public var parts: [Part]

    /// Why a body could not be read as a form.
    public struct Malformed: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Splits `body` by the boundary that `contentType` (the request's Content-Type) names.
    /// - Throws: `Malformed` when the type is not multipart/form-data with a boundary, or the body
    ///   has no closing boundary or a part without a name.
    public init(body: Data, contentType: String?) throws {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else {
            throw Malformed(description: "the body must be multipart/form-data")
        }
        let boundary = contentType.split(separator: ";").compactMap { parameter -> String? in
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { return nil }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }.first
        guard let boundary, !boundary.isEmpty else { throw Malformed(description: "the multipart/form-data type names no boundary") }
        let delimiter = Data("--\(boundary)".utf8)
        let lineBreak = Data("\r\n".utf8)
        guard var cursor = body.range(of: delimiter)?.upperBound else { throw Malformed(description: "the body holds no part") }
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" ends the body, a line break starts a part.
            if body[cursor...].starts(with: Data("--".utf8)) { break }
            guard body[cursor...].starts(with: lineBreak) else { throw Malformed(description: "a boundary is not followed by a line break") }
            let headerStart = cursor + 2
            guard let headerEnd = body.range(of: Data("\r\n\r\n".utf8), in: headerStart..<body.endIndex) else {
                throw Malformed(description: "a part has no end of headers")
            }
            guard let next = body.range(of: lineBreak + delimiter, in: headerEnd.upperBound..<body.endIndex) else {
                throw Malformed(description: "the body has no closing boundary")
            }
            var part = Part(name: "", fileName: nil, contentType: nil, data: body[headerEnd.upperBound..<next.lowerBound])
            let headers = String(decoding: body[headerStart..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            for header in headers {
                guard let colon = header.firstIndex(of: ":") else { continue }
                let field = header[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if field == "content-type" { part.contentType = value }
                if field == "content-disposition" {
                    part.name = Self.parameter("name", in: value) ?? ""
                    // Browsers (and `MultipartFormData`) write a quote in a file name as %22 (WHATWG).
                    part.fileName = Self.parameter("filename", in: value)?.replacingOccurrences(of: "%22", with: "\"")
                }
            }
            guard !part.name.isEmpty else { throw Malformed(description: "a part has no name") }
            parts.append(part)
            cursor = next.upperBound
        }
        self.parts = parts
    }

    /// The first part called `name`.
    public func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The text of the first field called `name` (UTF-8), if any.
    public func field(_ name: String) -> String? { part(name).map { String(decoding: $0.data, as: UTF8.self) } }

    /// `name="value"` (or unquoted) in a Content-Disposition value; `\"` inside quotes is a quote.
    static func parameter(_ name: String, in value: String) -> String? {
        var rest = Substring(value)
        while let range = rest.range(of: name + "=", options: .caseInsensitive) {
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before == nil || before == ";" || before == " " else { continue }
            if rest.first == "\"" {
                var text = ""
                var escaped = false
                for character in rest.dropFirst() {
                    if escaped { text.append(character); escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { return text } else { text.append(character) }
                }
                return text
            }
            return String(rest.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}

/// The answer of OpenAI's transcription API (`POST /v1/audio/transcriptions`) in each of its
/// `response_format`s, for a transcript made on this machine.
public enum TranscriptionResponseFormat: String, Sendable, CaseIterable {
    /// `{"text": "…"}`.
    case json
    /// The text alone.
    case text
    /// SubRip subtitles.
    case srt
    /// WebVTT subtitles.
    case vtt
    /// `{"task": "transcribe", "language", "duration", "text", "segments": [{"id", "seek", "start", "end", "text", "tokens", "temperature", "avg_logprob", "compression_ratio", "no_speech_prob"}], "words": [{"word", "start", "end"}]}`;
    /// the scores the local engines do not give are 0.
    case verboseJSON = "verbose_json"

    /// The body and its media type for `segments` (in start order) of audio `durationSeconds` long
    /// in `language` (a BCP 47 tag). The text is the segments' texts joined by spaces.
    public func render(_ segments: [TranscriptSegment], language: String, durationSeconds: Double) -> (body: String, mediaType: String) {
        let segments = SegmentSanitizer.sanitize(segments)
        let text = segments.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }.joined(separator: " ")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json<Value: Encodable>(_ value: Value) -> String {
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
        switch self {
        case .json:
            return (json(["text": text]), "application/json")
        case .text:
            return (text + "\n", "text/plain; charset=utf-8")
        case .srt:
            return (TranscriptExporter().subtitles(segments, format: .srt, audioEndSeconds: durationSeconds) ?? "", ExportFormat.srt.mediaType)
        case .vtt:
            return (TranscriptExporter().subtitles(segments, format: .vtt, audioEndSeconds: durationSeconds) ?? "", ExportFormat.vtt.mediaType)
        case .verboseJSON:
            struct Segment: Encodable {
                var id: Int, seek = 0, start: Double, end: Double, text: String, tokens: [Int] = []
                var temperature = 0.0, avg_logprob = 0.0, compression_ratio = 0.0, no_speech_prob = 0.0
            }
            struct Word: Encodable { var word: String; var start: Double; var end: Double }
            struct Verbose: Encodable {
                var task = "transcribe", language: String, duration: Double, text: String, segments: [Segment], words: [Word]
            }
            let verbose = Verbose(language: language, duration: durationSeconds, text: text,
                                  segments: segments.enumerated().map { Segment(id: $0, start: $1.startSeconds, end: $1.endSeconds, text: $1.text) },
                                  words: segments.flatMap { $0.words.map { Word(word: $0.word, start: $0.startSeconds, end: $0.endSeconds) } })
            return (json(verbose), "application/json")
        }
    }
}
