import Foundation
import LiveTranscriberCore
import Observation

/// The Recordings tab's state: the library's list, search results, and the actions on a
/// recording. Library rules (search terms, exports, summaries, names and tags) are the core's.
@MainActor
@Observable
final class LibraryModel {
    private(set) var recordings: [Recording] = []
    /// Search results, best first: each recording with the places that matched.
    private(set) var results: [SearchResult] = []
    /// Why the library could not be read or the last action failed, shown above the list.
    private(set) var problem: String?
    /// What a long action on a recording is doing now ("Uploading part 2 of 3…"), by recording id.
    private(set) var working: [String: String] = [:]
    var query = "" {
        didSet { search() }
    }

    private let dependencies: AppDependencies
    let haptics: HapticCoordinator
    let settings: SettingsModel

    init(dependencies: AppDependencies, haptics: HapticCoordinator, settings: SettingsModel) {
        self.dependencies = dependencies
        self.haptics = haptics
        self.settings = settings
    }

    var library: (any RecordingLibrary)? { try? settings.openLibrary().library }

    func reload() {
        do {
            recordings = try settings.openLibrary().library.list()
            problem = nil
            search()
        } catch {
            problem = String(describing: error)
        }
    }

    /// Saves drafts a crash left; they then appear in the list.
    func recoverDrafts() {
        do {
            _ = try settings.openLibrary().library.recoverDrafts()
        } catch {
            problem = String(describing: error)
        }
    }

    private func search() {
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty, let library else {
            results = []
            return
        }
        do {
            results = try library.search(query, limit: 50)
        } catch {
            results = []
            problem = String(describing: error)
        }
    }

    func delete(_ recording: Recording) {
        perform(.deleted) { try $0.delete(recording.id, purge: false) }
    }

    func rename(_ recording: Recording, to name: String) throws {
        // Checked here too, by the same rule the store applies, so the sheet can say what is wrong.
        let checked = try RecordingName.validated(name)
        perform(.primaryAction) { try $0.rename(recording.id, to: checked) }
    }

    func setTags(_ recording: Recording, list: String) throws {
        let tags = try RecordingTags.normalized([list])
        perform(.primaryAction) { try $0.modify(recording.id) { $0.tags = tags } }
    }

    /// The transcript in `format`, written to a temporary file for the share sheet.
    func exportFile(_ recording: Recording, format: ExportFormat) throws -> URL {
        let library = try settings.openLibrary().library
        let text = TranscriptExporter().export(
            recording: recording, segments: try library.transcript(of: recording.id), format: format)
        // Named by the recording's id: always a safe file name, whatever the recording is called.
        let url = URL.temporaryDirectory.appending(path: "\(recording.id).\(format.fileExtension)")
        try Data(text.utf8).write(to: url, options: .atomic)
        return url
    }

    /// Summary and tags: Apple Intelligence's two-pass summary when the model can answer, else the
    /// core's offline summary, by the core's `RecordingSummarizing` (a transcript with no text is
    /// refused; the summary is applied to the metadata as stored then, so a tag added meanwhile is
    /// kept). Runs off the main actor (the model call blocks), with a store and a model of its own.
    func summarize(_ recording: Recording) async {
        guard let openStore = backgroundStore() else { return }
        let makeModel = dependencies.languageModel
        let result = await runBlocking {
            _ = try RecordingSummarizing.summarize(recording.id, in: try openStore()) { () -> any Summarizer in
                guard let model = makeModel() else { return ExtractiveSummarizer() }
                return ModelSummarizer(model: model)
            }
        }
        finished(.analyzed, result)
    }

    /// Transcribes the recording again through OpenAI with the core's flow (`CloudRetranscriber`:
    /// the file whole when it fits, else WAV pieces cut at pauses), then saves the new transcript
    /// through the store, which keeps the previous one. `working[recording.id]` says what it is doing.
    func retranscribeWithOpenAI(_ recording: Recording) async {
        guard working[recording.id] == nil, let openStore = backgroundStore() else { return }
        guard let endpoint = openAIEndpointOrBlock() else { return }
        let client = OpenAITranscriptionClient(endpoint: endpoint, http: HTTPClient(transport: dependencies.httpTransport))
        let makeSlicer = dependencies.makeAudioSlicer
        let model = settings.transcriptionModel
        let id = recording.id
        working[id] = Retranscription.uploadNotice(recordingName: recording.name, host: endpoint.baseURL.host, model: model)
        problem = nil
        let report: @Sendable (CloudRetranscriptionProgress) -> Void = { progress in
            // A late report after the work ended is dropped.
            Task { @MainActor [weak self] in
                if self?.working[id] != nil { self?.working[id] = progress.description }
            }
        }
        let result = await runBlocking {
            let store = try openStore()
            // The transcript as read now: one changed meanwhile (by another device, through iCloud
            // Drive) is kept, not overwritten; a damaged one is repaired.
            let job = try RecordingRetranscription(recording: recording, in: store)
            _ = try job.run(in: store, reads: .avFoundation) { audio in
                let segments = try CloudRetranscriber(client: client, slicer: makeSlicer()).transcribe(
                    audioFile: audio, localSegments: job.currentSegments ?? [], model: model,
                    language: recording.language, durationSeconds: recording.durationSeconds, progress: report)
                return NewTranscript(segments: segments, language: recording.language, vocabulary: nil)
            }.saved()
        }
        working[id] = nil
        finished(.retranscribed, result, sentence: true)
    }

    /// The OpenAI endpoint from Settings, or nil after showing why there is none (no key, a key
    /// the core refuses) with the blocked-action haptic.
    private func openAIEndpointOrBlock() -> OpenAIEndpoint? {
        do {
            return try settings.openAIEndpoint()
        } catch {
            problem = Sentence.capitalized(String(describing: error))
            haptics.occurred(.blocked)
            return nil
        }
    }

    /// Puts back the transcript the last re-transcription replaced (the store keeps one).
    func restorePreviousTranscript(_ recording: Recording) {
        perform(.primaryAction) { library in
            guard try library.restorePreviousTranscript(of: recording.id) else {
                throw RetranscriptionError.noPreviousTranscript(recordingName: recording.name)
            }
        }
    }

    /// Summary and tags from OpenAI's chat model (`OpenAICompatibleChatModel`) with the core's
    /// two-pass summary: the transcript text, not the audio, is sent.
    func summarizeWithOpenAI(_ recording: Recording) async {
        guard working[recording.id] == nil, let openStore = backgroundStore() else { return }
        guard let endpoint = openAIEndpointOrBlock() else { return }
        let model = OpenAICompatibleChatModel(endpoint: endpoint, http: HTTPClient(transport: dependencies.httpTransport))
        working[recording.id] = "Summarizing with OpenAI \(model.model)…"
        problem = nil
        let result = await runBlocking {
            _ = try RecordingSummarizing.summarize(recording.id, in: try openStore()) { ModelSummarizer(model: model) }
        }
        working[recording.id] = nil
        finished(.analyzed, result, sentence: true)
    }

    /// The library's opener for work off the main actor (which opens a store of its own), or nil
    /// after showing why the library cannot be opened.
    private func backgroundStore() -> (@Sendable () throws -> any RecordingLibrary)? {
        do {
            return try settings.openLibrary().openStore
        } catch {
            problem = String(describing: error)
            haptics.occurred(.failure)
            return nil
        }
    }

    /// Reports background work that changed the library: the haptic and the reloaded list, or the
    /// error (as a sentence for the OpenAI actions, whose errors are the core's phrases).
    private func finished(_ event: HapticEvent, _ result: Result<Void, any Error>, sentence: Bool = false) {
        switch result {
        case .success:
            haptics.occurred(event)
            reload()
        case .failure(let error):
            problem = sentence ? Sentence.capitalized(String(describing: error)) : String(describing: error)
            haptics.occurred(.failure)
        }
    }

    private func perform(_ event: HapticEvent, _ change: (any RecordingLibrary) throws -> Void) {
        guard let library else { return }
        do {
            try change(library)
            haptics.occurred(event)
            reload()
        } catch {
            problem = String(describing: error)
            haptics.occurred(.failure)
        }
    }
}

