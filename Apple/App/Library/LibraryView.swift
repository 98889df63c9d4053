import LiveTranscriberCore
import SwiftUI
import UniformTypeIdentifiers

/// The Recordings tab: the library newest first, search (the core's FTS5 search, with the time of
/// the matching segment), import, context menus and swipe actions.
struct LibraryView: View {
    @Bindable var model: LibraryModel
    @State private var isImporting = false
    @State private var importer = ImportModel()

    var body: some View {
        NavigationStack {
            List {
                if let current = importer.current {
                    Label("Importing \(current)…", systemImage: "square.and.arrow.down")
                }
                ForEach(importer.failures, id: \.self) { failure in
                    Label(failure, systemImage: "exclamationmark.triangle.fill").foregroundStyle(.orange)
                }
                ForEach(model.working.sorted(by: { $0.key < $1.key }), id: \.key) { _, line in
                    Label { Text(line) } icon: { ProgressView() }
                }
                if let problem = model.problem {
                    Label(problem, systemImage: "exclamationmark.triangle.fill").foregroundStyle(.orange)
                }
                if model.query.isEmpty {
                    ForEach(model.recordings) { recording in
                        NavigationLink(value: recording) { RecordingRow(recording: recording) }
                            .contextMenu { actions(for: recording) }
                            .swipeActions(edge: .trailing) {
                                Button("Delete", systemImage: "trash", role: .destructive) { model.delete(recording) }
                            }
                            .swipeActions(edge: .leading) {
                                Button("Summarize", systemImage: "sparkles") { Task { await model.summarize(recording) } }
                                    .tint(.purple)
                            }
                    }
                } else {
                    ForEach(model.results, id: \.recording.id) { result in
                        NavigationLink(value: result.recording) {
                            VStack(alignment: .leading, spacing: 4) {
                                Text(result.recording.name).font(.headline)
                                ForEach(Array(result.hits.enumerated()), id: \.offset) { _, hit in
                                    HStack(alignment: .firstTextBaseline) {
                                        if let time = hit.timeText { Text(time).font(.caption.monospacedDigit()) }
                                        Text(Self.snippet(hit)).font(.subheadline).lineLimit(2)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            .navigationTitle("Recordings")
            .navigationDestination(for: Recording.self) { recording in
                RecordingDetailView(recording: recording, library: model)
            }
            .searchable(text: $model.query, prompt: "Names, transcripts, tags, summaries")
            .toolbar {
                Button("Import", systemImage: "square.and.arrow.down") { isImporting = true }
            }
            .fileImporter(isPresented: $isImporting, allowedContentTypes: [.audio], allowsMultipleSelection: true) { result in
                guard case .success(let urls) = result else { return }
                Task { await importer.importFiles(urls, settings: model.settings, haptics: model.haptics) { model.reload() } }
            }
            .refreshable { model.reload() }
        }
    }

    @ViewBuilder private func actions(for recording: Recording) -> some View {
        Button("Summarize", systemImage: "sparkles") { Task { await model.summarize(recording) } }
        Button("Re-transcribe with OpenAI", systemImage: "arrow.triangle.2.circlepath") {
            Task { await model.retranscribeWithOpenAI(recording) }
        }
        .disabled(model.working[recording.id] != nil)
        Button("Delete", systemImage: "trash", role: .destructive) { model.delete(recording) }
    }

    /// Columns of snippet the two lines of a result show on an iPhone in portrait (`CharacterWidth`
    /// columns: a CJK character takes two).
    static let snippetColumns = 80

    /// The hit's snippet cut around its first match to `snippetColumns` (`SearchSnippet.fit`, so a
    /// match late in a long segment is never cut away by the line limit), matches in bold.
    static func snippet(_ hit: SearchHit) -> AttributedString {
        var text = AttributedString()
        for run in SearchSnippet.runs(SearchSnippet.fit(hit.markedSnippet, width: snippetColumns)) {
            var part = AttributedString(run.text)
            if run.isMatch { part.inlinePresentationIntent = .stronglyEmphasized }
            text += part
        }
        return text
    }
}

/// One row: name, date, duration, tags.
struct RecordingRow: View {
    let recording: Recording

    var body: some View {
        VStack(alignment: .leading, spacing: 4) {
            Text(recording.name).font(.headline)
            HStack {
                Text(recording.createdAt, format: .dateTime.day().month().hour().minute())
                Text(ElapsedTimeFormat.clock(recording.durationSeconds)).monospacedDigit()
                if !recording.tags.isEmpty { Text(recording.tags.joined(separator: ", ")).lineLimit(1) }
            }
            .font(.caption)
            .foregroundStyle(.secondary)
        }
    }
}

/// Imports audio files into the library with the core's `RecordingImport`, as the command line's
/// `import` does: named from the file name, a file whose audio (content digest) a saved recording
/// already has is refused before anything is transcribed, and the rest runs through the same
/// recording engine (at full speed, with no Live Activity); a file that fails is reported and
/// skipped. The digest, the stop (the recognizer finalizing) and the save run off the main actor.
@MainActor
@Observable
final class ImportModel {
    /// The file being imported, for the progress row.
    private(set) var current: String?
    /// One line per file that could not be imported.
    private(set) var failures: [String] = []

    func importFiles(_ urls: [URL], settings: SettingsModel, haptics: HapticCoordinator, done: @escaping () -> Void) async {
        failures = []
        for url in urls {
            current = RecordingImport.name(of: url)
            let scoped = url.startAccessingSecurityScopedResource()
            defer { if scoped { url.stopAccessingSecurityScopedResource() } }
            do {
                try await importFile(url, settings: settings)
                haptics.occurred(.imported)
            } catch LibraryError.alreadyInLibrary(_, let existing, let audioMissing) {
                failures.append("\(url.lastPathComponent): already in the library as “\(existing)”"
                                + (audioMissing ? ", but \(MissingAudioFile.clause)" : ""))
                haptics.occurred(.failure)
            } catch {
                failures.append("\(url.lastPathComponent): \(error)")
                haptics.occurred(.failure)
            }
            done()
        }
        current = nil
    }

    /// - Throws: `LibraryError.alreadyInLibrary` for a file whose audio a saved recording already
    ///   has (`RecordingImport`, as the command line's `import` without `--again`).
    private func importFile(_ url: URL, settings: SettingsModel) async throws {
        let opened = try settings.openLibrary()
        let openStore = opened.openStore
        // Reading the whole file for its digest takes a while: on a thread of its own, with a store of its own.
        let plan = try await runBlocking {
            try RecordingImport(file: url, refusingDuplicates: true, library: try openStore(),
                                contentDigest: { AVAudioFileMeasure().contentDigest($0) })
        }.get()
        let source = try AudioFileSource(url: url)
        let recognizer = try await SpeechAnalyzerRecognizer.make(language: settings.language)
        let (ended, endedContinuation) = AsyncStream<Void>.makeStream()
        let request = RecordingRequest(
            settings: plan.engineSettings(language: settings.language, fileFormat: settings.fileFormat),
            source: source, recognizer: recognizer, observer: { _ in },
            activity: NoLiveActivity(),
            sourceEnded: { endedContinuation.yield(); endedContinuation.finish() })
        let runner = try opened.makeRunner(request)
        try runner.start()
        for await _ in ended {}
        _ = try await runBlocking {
            try runner.stop()
            return try runner.finish(keep: true, name: plan.name, tags: nil, location: nil)
        }.get()
    }
}

/// The activity client of an import, which shows no Live Activity: requests get an id and
/// nothing is shown, updated or ended.
private final class NoLiveActivity: ActivityClient {
    func request(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
        staleDate: Date?, timestamp: Date
    ) throws -> String { "import-\(attributes.recordingID)" }

    func update(activityID: String, content: RecordingActivityAttributes.ContentState, timestamp: Date, staleDate: Date?) {}

    func end(
        activityID: String, content: RecordingActivityAttributes.ContentState?,
        dismissalPolicy: ActivityDismissalPolicy, timestamp: Date
    ) {}
}
