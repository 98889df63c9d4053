import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLibraryCLI
import LiveTranscriberLinux
import Synchronization

/// The library's web API and page (docs/serve.md): every request `livetranscriber serve`
/// receives, checked by `WebAccess`, answered from the store the library commands use.
/// Called on several connection threads at once; the store is used by one at a time.
final class LibraryWebAPI: Sendable {
    private let token: String
    private let host: String
    private let port = Atomic<Int>(0)
    private let timeZone: TimeZone
    /// The store, opened on the first request that finds a library (until then there is none).
    private let store: Mutex<(any RecordingStore)?>
    private let open: @Sendable () throws -> sending any RecordingStore
    /// Imports an uploaded file (`WebImport`); nil where uploads are not taken.
    let importer: WebImport?
    /// The Live page's API (`/api/live…`); nil answers 404 there.
    let live: LiveWebAPI?
    /// Re-transcribes from the Recording page; nil answers 404 there.
    let retranscriber: WebRetranscriber?

    /// - Parameter open: opens the library (`makeStore`); called again while it returns `MissingLibrary`.
    /// - Parameters:
    ///   - token: the access token (`WebAccess.newToken`).
    ///   - host: the address the server listens on (its port is given by `listening(on:)` once bound).
    ///   - importer: imports uploads (`POST /api/import`); nil refuses them (404).
    ///   - live: the Live page's API; nil answers 404 under `/api/live`.
    ///   - retranscriber: re-transcribes (`/api/recordings/ID/retranscribe`); nil answers 404 there.
    init(token: String, host: String, timeZone: TimeZone, importer: WebImport? = nil, live: LiveWebAPI? = nil,
         retranscriber: WebRetranscriber? = nil, open: @escaping @Sendable () throws -> sending any RecordingStore) {
        self.importer = importer
        self.retranscriber = retranscriber
        self.live = live
        self.token = token
        self.host = host
        self.timeZone = timeZone
        self.open = open
        store = Mutex(nil)
    }

    /// Sets the port the server was bound to; until then every request's Host is refused.
    func listening(on port: Int) { self.port.store(port, ordering: .relaxed) }

    /// Who may use the server (the port as bound).
    var access: WebAccess { WebAccess(token: token, boundHost: host, port: port.load(ordering: .relaxed)) }

    /// The answer to `request`, with the headers every answer carries (no caching of the API, no
    /// framing, no sniffing, no referrer, a content security policy allowing only this server).
    func respond(to request: WebRequest) -> WebResponse {
        var response = access.refusal(of: request) ?? route(request)
        response.headers += [
            ("X-Content-Type-Options", "nosniff"),
            ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
            ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; media-src 'self'; "
                + "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
        ]
        return response
    }

    // MARK: Routing

    /// Dispatches through `routes` (each declared once, in `LibraryWebAPI+Routes.swift`).
    private func route(_ request: WebRequest) -> WebResponse {
        switch Self.router.resolve(method: request.method, path: request.path, provides: provides) {
        case .route(let route, let path): return route.handler(self, request, path)
        case .notAllowed(let allowed):
            var refused = WebResponse.error(405, "\(request.method) is not allowed on \(request.path)")
            refused.headers.append(("Allow", allowed.joined(separator: ", ")))
            return refused
        case .notFound: return .error(404, "no such page or API: \(request.method) \(request.path)")
        }
    }

    /// Runs `work` with the store's errors as 4xx and 5xx answers of one JSON line.
    func answer(_ work: () throws -> WebResponse) -> WebResponse {
        do {
            return try work()
        } catch let error as LibraryError {
            switch error {
            // Ids here are exact (`exactRecording`): no prefix, and no command-line hint.
            case .notFound(let id), .ambiguous(let id, _): return .error(404, "no recording has the id '\(VisibleText.escaped(id))'")
            case .invalid: return .error(400, error.description)
            case .busy: return .error(503, error.description)
            case .readOnly, .alreadyInLibrary, .changedMeanwhile: return .error(409, error.description)
            case .corrupt, .saveFailed: return .error(500, error.description)
            }
        } catch let error as BadRequest {
            return .error(400, error.message)
        } catch let error as NoTranslation {
            return .error(404, error.description)
        } catch let error as SummarizingError {
            return .error(422, error.description)
        } catch let error as WebImport.Failure {
            return .error(422, error.description)
        } catch let error as AudioFormatUnsupported {
            return .error(422, "this recording cannot be transcribed again here: \(error.description)")
        } catch let error as WebRetranscriber.Busy {
            return .error(409, error.description)
        } catch let error as MissingAudioFile {
            return .error(410, error.description)  // gone for good, as a deleted file is
        } catch {
            return .error(500, CommandRunner.describe(error))
        }
    }

    struct BadRequest: Error { var message: String }

    private static func failure<Value>(of result: Result<Value, LibraryError>) -> LibraryError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// A translation was asked for and none is kept (404).
    struct NoTranslation: Error, CustomStringConvertible {
        var description: String { "this recording has no translation; translate it first (Translate into English)" }
    }

    private func withStore<T: Sendable>(_ work: @Sendable (any RecordingStore) throws -> T) throws -> T {
        try store.withLock { store in
            if store == nil || store is MissingLibrary { store = try open() }
            return try work(store!)
        }
    }

    /// The recording with exactly this id (no prefix, no "latest"), the id checked by
    /// `RecordingID.isSafe` before the store builds any path from it.
    private func exactRecording(_ id: String, in store: any RecordingStore) throws -> Recording {
        guard RecordingID.isSafe(id), !RecordingID.isLatest(id) else { throw BadRequest(message: "'\(id)' is not a recording id") }
        let recording = try store.resolve(id)
        guard recording.id == id else { throw LibraryError.notFound(id) }
        return recording
    }

    // MARK: Reading

    /// A recording as the library list shows it.
    struct Row: Encodable {
        var id: String
        var name: String
        var createdAt: Date
        /// "2026-11-29 20:41" in the server's time zone (`LibraryFormat.dateTime`).
        var date: String
        var duration: Double
        /// "1:02" (`ElapsedTimeFormat.clock`).
        var durationText: String
        var language: String
        var tags: [String]
        var summary: String?
        /// The recording's speakers, in order of first speech (`Recording.speakers`); empty when unlabelled.
        var speakers: [Speaker]
        /// `Recording.notes` (a dropped invented phrase, one sentence each); left out when there are none.
        var notes: [String]?
    }

    private func row(_ recording: Recording) -> Row {
        Row(id: recording.id, name: recording.name, createdAt: recording.createdAt,
            date: LibraryFormat.dateTime(recording.createdAt, timeZone: timeZone), duration: recording.durationSeconds,
            durationText: ElapsedTimeFormat.clock(recording.durationSeconds), language: recording.language,
            tags: recording.tags, summary: recording.summary, speakers: recording.speakers,
            notes: recording.notes.isEmpty ? nil : recording.notes)
    }

    private func page(_ request: WebRequest) throws -> (offset: Int, limit: Int) {
        try LibraryPage.requested(offset: request.query["offset"], limit: request.query["limit"])
    }

    func list(_ request: WebRequest) throws -> WebResponse {
        let (offset, limit) = try page(request)
        let tag = request.query["tag"].flatMap { $0.isEmpty ? nil : $0 }
        let recordings = try withStore { try $0.list(ListRequest(tag: tag, limit: limit, offset: offset)) }
        struct Answer: Encodable { var recordings: [Row]; var page: LibraryPage }
        return .json(Answer(recordings: recordings.map(row), page: LibraryPage(offset: offset, limit: limit, count: recordings.count)))
    }

    func tags() throws -> WebResponse {
        .json(["tags": try withStore { try $0.allTags() }])
    }

    func search(_ request: WebRequest) throws -> WebResponse {
        let (offset, limit) = try page(request)
        guard let query = request.query["q"], !query.allSatisfy(\.isWhitespace) else {
            throw BadRequest(message: "give the words to find as q")
        }
        // With a tag, the pages count only the results that have it (`FilteredSearchPage`).
        let tag = request.query["tag"].flatMap { $0.isEmpty ? nil : $0 }
        let results = try withStore { store in
            let search = { (offset: Int, limit: Int) in
                try store.search(SearchRequest(query, limit: limit, offset: offset, placesPerRecording: 3))
            }
            guard let tag else { return try search(offset, limit) }
            return try FilteredSearchPage.results(offset: offset, limit: limit,
                                                  keep: { $0.recording.tags.contains { RecordingTags.same($0, tag) } }, fetch: search)
        }
        struct Run: Encodable { var text: String; var match: Bool }
        struct Place: Encodable { var field: String; var start: Double?; var time: String?; var runs: [Run] }
        struct Result: Encodable { var recording: Row; var places: [Place]; var moreSegments: Int }
        struct Answer: Encodable { var results: [Result]; var page: LibraryPage }
        let shaped = results.map { result in
            let places = result.hits.map { hit in
                Place(field: hit.field.rawValue, start: hit.startSeconds, time: hit.timeText,
                      runs: SearchSnippet.runs(hit.markedSnippet).map { Run(text: $0.text, match: $0.isMatch) })
            }
            let shown = result.hits.filter { $0.field == .transcript }.count
            return Result(recording: row(result.recording), places: places, moreSegments: max(0, result.matchingSegments - shown))
        }
        return .json(Answer(results: shaped, page: LibraryPage(offset: offset, limit: limit, count: results.count)))
    }

    func show(_ id: String) throws -> WebResponse {
        let (recording, segments, translation, audioMissing) = try withStore { store in
            let recording = try exactRecording(id, in: store)
            // A damaged translation.json does not hide the recording: it is said instead (`translate` makes it again).
            let translation: Result<[TranscriptSegment]?, LibraryError>
            do {
                translation = .success(try store.translation(of: recording.id))
            } catch let error as LibraryError {
                guard case .corrupt = error else { throw error }
                translation = .failure(error)
            }
            return (recording, try store.transcript(of: recording.id), translation, store.isAudioMissing(recording.id))
        }
        struct Translation: Encodable {
            /// BCP 47 tag of the translation ("en").
            var language: String
            var transcript: PlaybackTranscript
        }
        struct Answer: Encodable {
            var recording: Row
            var transcript: PlaybackTranscript
            /// The English translation kept next to the transcript (`RecordingTranslation`); left out when there is none.
            var translation: Translation?
            /// Why the kept translation cannot be read (`LibraryError.corrupt`), when it cannot; left out otherwise.
            var translationUnreadable: String?
            var exports: [String]
            /// `MissingAudioFile.clause` when the audio file is gone; left out otherwise.
            var audioMissing: String?
        }
        let kept: [TranscriptSegment]? = (try? translation.get()) ?? nil
        let translated = kept.map { segments in
            let language = recording.translation ?? RecordingTranslation.language
            return Translation(language: language, transcript: PlaybackTranscript(segments, speakers: [], recordingLanguage: language))
        }
        return .json(Answer(recording: row(recording), transcript: PlaybackTranscript(segments, speakers: recording.speakers, recordingLanguage: recording.language),
                            translation: translated, translationUnreadable: Self.failure(of: translation)?.description,
                            exports: ExportFormat.allCases.map(\.rawValue),
                            audioMissing: audioMissing ? MissingAudioFile.clause : nil))
    }

    func audio(_ id: String, range header: String?) throws -> WebResponse {
        let file = try withStore { store in try store.existingAudioFile(of: try exactRecording(id, in: store)) }
        let length = try (FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.uint64Value ?? 0
        var headers = [("Content-Type", AudioContentType.mediaType(forFileName: file.lastPathComponent) ?? "application/octet-stream"),
                       ("Accept-Ranges", "bytes")]
        let range = ByteRange.parse(header, length: length)
        if let contentRange = range.contentRange(length: length) { headers.append(("Content-Range", contentRange)) }
        switch range {
        case .whole:
            return WebResponse(status: 200, headers: headers, body: .file(path: file.path, offset: 0, length: length))
        case .part(let first, let last):
            return WebResponse(status: 206, headers: headers, body: .file(path: file.path, offset: first, length: last - first + 1))
        case .unsatisfiable:
            var refused = WebResponse.error(416, "the range '\(header ?? "")' is outside the audio's \(length) bytes")
            refused.headers += headers.dropFirst()
            return refused
        }
    }

    /// `transcript`: "current" (nil: the same) or "translated", as `export --transcript`.
    func export(_ id: String, _ formatName: String, transcript: String?) throws -> WebResponse {
        guard let format = ExportFormat(rawValue: formatName.lowercased()) else {
            throw BadRequest(message: "unknown format '\(formatName)'; use " + ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        let translated: Bool
        switch transcript ?? "current" {
        case "current": translated = false
        case "translated": translated = true
        case let other: throw BadRequest(message: "unknown transcript '\(VisibleText.escaped(other))'; use current or translated")
        }
        let (recording, segments) = try withStore { store in
            var recording = try exactRecording(id, in: store)
            guard translated else { return (recording, try store.transcript(of: recording.id)) }
            guard let translation = try store.translation(of: recording.id) else { throw NoTranslation() }
            recording.language = recording.translation ?? RecordingTranslation.language
            return (recording, translation)
        }
        let text = TranscriptExporter().export(recording: recording, segments: segments, format: format)
        let name = format.fileName(for: recording, translation: translated ? recording.language : nil)
        // RFC 6266: an ASCII fallback and the UTF-8 name.
        let ascii = String(name.unicodeScalars.map { $0.isASCII && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let encoded = name.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics) ?? ascii
        return WebResponse(status: 200, headers: [("Content-Type", format.mediaType),
                                                  ("Content-Disposition", "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)")],
                           body: .data(Data(text.utf8)))
    }

    // MARK: Changes

    private func decode<Body: RequestBody>(_ type: Body.Type, _ data: Data) throws -> Body {
        do {
            return try Body.decoded(from: data)
        } catch let refused as RequestBodyRefused {
            throw BadRequest(message: refused.message)
        }
    }

    func rename(_ id: String, _ body: Data) throws -> WebResponse {
        struct Body: RequestBody {
            var name: String
            enum CodingKeys: String, CodingKey, CaseIterable { case name }
        }
        let name = try decode(Body.self, body).name
        let renamed = try withStore { store in try store.rename(try exactRecording(id, in: store).id, to: name) }
        return .json(["recording": row(renamed)])
    }

    /// `{"speaker": "S1", "name": "Anna"}`: names a speaker (`RecordingSpeakerLabels.rename`); an empty name removes it.
    func renameSpeaker(_ id: String, _ body: Data) throws -> WebResponse {
        struct Body: RequestBody {
            var speaker: String
            var name: String
            enum CodingKeys: String, CodingKey, CaseIterable { case speaker, name }
        }
        let change = try decode(Body.self, body)
        let renamed = try withStore { store in
            try RecordingSpeakerLabels.rename(change.speaker, of: try exactRecording(id, in: store), to: change.name, in: store)
        }
        return .json(["recording": row(renamed)])
    }

    func changeTags(_ id: String, _ body: Data) throws -> WebResponse {
        struct Body: RequestBody {
            var add: [String]?
            var remove: [String]?
            enum CodingKeys: String, CodingKey, CaseIterable { case add, remove }
        }
        let change = try decode(Body.self, body)
        let changed = try withStore { store in
            try store.changeTags(try exactRecording(id, in: store).id, adding: change.add ?? [], removing: change.remove ?? [])
        }
        return .json(["recording": row(changed)])
    }

    func upload(_ request: WebRequest, with importer: WebImport) throws -> WebResponse {
        let name: String
        do {
            name = try UploadedFileName.check(request.query["name"] ?? "")
        } catch let problem as UploadedFileName.Problem {
            throw BadRequest(message: problem.description)
        }
        guard !request.body.isEmpty else { throw BadRequest(message: "the body is empty: send the audio file's bytes") }
        try withStore { try $0.checkCanBeChanged() }  // 409 before the upload is written anywhere
        let tags = request.query["tags"].map { [$0] } ?? []
        let again = request.query["again"] == "1" || request.query["again"] == "true"
        let saved = try importer.run(fileName: name, data: request.body, tags: tags, again: again)
        struct Answer: Encodable { var recording: Row; var segments: Int }
        return .json(Answer(recording: row(saved.recording), segments: saved.segments.count))
    }

    /// OpenAI's transcription API in shape: multipart `file`, `language` (a BCP 47 tag or "auto";
    /// default: detected), `prompt` and `model` (accepted, not used), `response_format`; nothing is saved.
    func transcribe(_ request: WebRequest, with importer: WebImport) throws -> WebResponse {
        let form: MultipartForm
        do {
            form = try MultipartForm(body: request.body, contentType: request.headers["content-type"])
        } catch let error as MultipartForm.Malformed {
            throw BadRequest(message: error.description)
        }
        guard let file = form.part("file"), !file.data.isEmpty else { throw BadRequest(message: "the form has no file") }
        let formatName = form.field("response_format") ?? "json"
        guard let format = TranscriptionResponseFormat(rawValue: formatName) else {
            throw BadRequest(message: "unknown response_format '\(formatName)'; use "
                + TranscriptionResponseFormat.allCases.map(\.rawValue).joined(separator: ", "))
        }
        // A tag that is not one, or a language the engine cannot take: 400 before the file is read.
        let language: String
        do {
            // No language given: detected, as `import` and OpenAI's endpoint do (`LanguageChoice.automatic`).
            language = try SpeechOptions.languageTag(form.field("language").flatMap { $0.isEmpty ? nil : $0 } ?? "auto")
            try SpeechOptions.validate(SpeechOptions.defaultEngine(importer.context.environment), language: language, model: nil)
        } catch let error as UsageError {
            throw BadRequest(message: error.message)
        }
        let name = file.fileName.flatMap(UploadedFileName.checked) ?? "audio"
        // A clip too short to identify takes the library's recent language, as an upload to the library does.
        let recent = try? withStore { store in RecentLanguage.of(try store.list()) }
        let (segments, seconds, spoken) = try importer.transcribe(fileName: name, data: file.data, language: language,
                                                                  recentLanguage: recent ?? nil)
        let (body, type) = format.render(segments, language: spoken, durationSeconds: seconds)
        return WebResponse(status: 200, headers: [("Content-Type", type)], body: .data(Data(body.utf8)))
    }

    /// The core's summarizing use case with the offline summarizer (`summarize`'s default engine:
    /// nothing leaves the machine).
    func summarize(_ id: String) throws -> WebResponse {
        let (recording, summary) = try withStore { store in
            let found = try exactRecording(id, in: store)
            return try RecordingSummarizing.summarize(found.id, in: store) { ExtractiveSummarizer() }
        }
        struct Answer: Encodable { var recording: Row; var summary: String; var tags: [String] }
        return .json(Answer(recording: row(recording), summary: summary.summary, tags: summary.tags))
    }

    /// Starts re-transcribing with the default local engine; `{"language"?, "translate"?}`
    /// (language by default: the recording's, "auto" for one with stretches in other languages;
    /// `translate: true` makes the English translation instead, as `retranscribe --translate`).
    /// 202 with the job; its progress is read with GET. A library that cannot be changed is 409
    /// before a job starts.
    func retranscribe(_ id: String, _ body: Data) throws -> WebResponse {
        struct Body: RequestBody {
            var language: String?
            var translate: Bool?
            enum CodingKeys: String, CodingKey, CaseIterable { case language, translate }
        }
        let asked = body.isEmpty ? Body() : try decode(Body.self, body)
        let recording = try withStore { store in
            let recording = try exactRecording(id, in: store)
            try store.checkCanBeChanged()
            _ = try store.existingAudioFile(of: recording)  // 410 before a job starts when it is gone
            return recording
        }
        let job = try retranscriber!.start(recording, asked.translate == true ? .translate(from: asked.language) : .transcribe(language: asked.language))
        return .json(["job": job], status: 202)
    }

    func retranscription(_ id: String) throws -> WebResponse {
        // A job is answered even once its recording is deleted: it says what became of it.
        if RecordingID.isSafe(id), let job = retranscriber!.job(id) { return .json(["job": job]) }
        _ = try withStore { store in try exactRecording(id, in: store) }
        return .error(404, "this recording has not been transcribed again since the server started")
    }

    func delete(_ id: String) throws -> WebResponse {
        let deleted = try withStore { store in
            let recording = try exactRecording(id, in: store)
            try store.delete(recording.id, purge: false)
            return recording.id
        }
        struct Answer: Encodable { var id: String; var trashed: Bool }
        return .json(Answer(id: deleted, trashed: true))
    }
}
