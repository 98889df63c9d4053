import Foundation

/// What a transcription request returned.
public struct CloudTranscription: Sendable, Equatable {
    /// The whole text.
    public var text: String
    /// Segments with times in seconds from the start of the uploaded file (whisper-1 `verbose_json`);
    /// nil for models that return text only.
    public var segments: [TranscriptSegment]?

    public init(text: String, segments: [TranscriptSegment]?) {
        self.text = text
        self.segments = segments
    }
}

/// OpenAI's speech-to-text endpoint: `POST {baseURL}/audio/transcriptions`, multipart/form-data.
///
/// whisper-1 is asked for `verbose_json` with `timestamp_granularities[]=segment` and its segments
/// are parsed; gpt-4o-transcribe and gpt-4o-mini-transcribe are asked for `json` (they reject
/// `verbose_json`) and return text only. Bodies over `UploadPlan.requestLimitBytes` are refused
/// before sending (`OpenAIError.tooLarge`); `CloudRetranscriber` cuts long audio first.
public struct OpenAITranscriptionClient: Sendable {
    public let endpoint: OpenAIEndpoint
    private let http: HTTPClient

    public init(endpoint: OpenAIEndpoint, http: HTTPClient) {
        self.endpoint = endpoint
        self.http = http
    }

    /// Transcribes one audio file.
    ///
    /// - Parameters:
    ///   - audio: The file's bytes.
    ///   - fileName: Its name; the extension sets the part's Content-Type (`audio.wav` -> `audio/wav`).
    ///   - model: The model; it decides `response_format`.
    ///   - language: ISO 639-1 code ("en") or a BCP 47 tag whose primary code is sent; nil to let the model detect.
    /// - Throws: `OpenAIError.unsupportedAudio`, `.tooLarge`, `.badRequest`, `.unauthorized`, `.http`,
    ///   `.transport`, `.invalidResponse`.
    public func transcribe(audio: Data, fileName: String, model: TranscriptionModel, language: String?) throws -> CloudTranscription {
        guard let contentType = AudioContentType.mediaType(forFileName: fileName) else {
            throw OpenAIError.unsupportedAudio(fileName: fileName)
        }
        var form = MultipartFormData()
        form.addField("model", model.rawValue)
        form.addField("response_format", model.responseFormat)
        if model.returnsSegments { form.addField("timestamp_granularities[]", "segment") }
        if let language, case let code = LanguageTag.primarySubtag(language), !code.isEmpty {
            form.addField("language", code)
        }
        form.addFile("file", fileName: fileName, contentType: contentType, data: audio)
        let body = form.finished()
        guard body.count <= UploadPlan.requestLimitBytes else { throw OpenAIError.tooLarge(bytes: body.count) }

        let response = try http.send(endpoint.request("audio/transcriptions", contentType: form.contentType, body: body))
        try endpoint.check(response)
        return try Self.parse(response.body, segments: model.returnsSegments)
    }

    struct Verbose: Decodable {
        struct Segment: Decodable { var start: Double; var end: Double; var text: String }
        var text: String
        var segments: [Segment]?
    }

    static func parse(_ body: Data, segments wantsSegments: Bool) throws -> CloudTranscription {
        guard let answer = try? JSONDecoder().decode(Verbose.self, from: body) else {
            throw OpenAIError.invalidResponse("no \"text\" in the transcription")
        }
        guard wantsSegments else { return CloudTranscription(text: answer.text, segments: nil) }
        guard let segments = answer.segments else {
            throw OpenAIError.invalidResponse("no \"segments\" in the verbose_json transcription")
        }
        return CloudTranscription(text: answer.text, segments: segments.map {
            TranscriptSegment(text: $0.text.trimmingCharacters(in: .whitespacesAndNewlines), startSeconds: $0.start, endSeconds: $0.end)
        })
    }
}
