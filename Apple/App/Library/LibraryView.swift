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
                    ForEach(model.hits, id: \.recordingID) { hit in
                        if let recording = model.recordings.first(where: { $0.id == hit.recordingID }) {
                            NavigationLink(value: recording) {
                                VStack(alignment: .leading, spacing: 4) {
                                    Text(hit.recordingName).font(.headline)
                                    HStack(alignment: .firstTextBaseline) {
                                        if let time = hit.timeText { Text(time).font(.caption.monospacedDigit()) }
                                        Text(hit.snippet(open: "", close: "")).font(.subheadline).lineLimit(2)
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
                if case .success(let urls) = result { importer.enqueue(urls) }
            }
            .refreshable { model.reload() }
        }
    }

    @ViewBuilder private func actions(for recording: Recording) -> some View {
        Button("Summarize", systemImage: "sparkles") { Task { await model.summarize(recording) } }
        Button("Re-transcribe with OpenAI", systemImage: "arrow.triangle.2.circlepath") {
            Task { await model.retranscribeWithOpenAI(recording) }
        }
        Button("Delete", systemImage: "trash", role: .destructive) { model.delete(recording) }
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
                Text(LibraryFormat.clock(recording.durationSeconds)).monospacedDigit()
                if !recording.tags.isEmpty { Text(recording.tags.joined(separator: ", ")).lineLimit(1) }
            }
            .font(.caption)
            .foregroundStyle(.secondary)
        }
    }
}

/// Files chosen for import, waiting for the import path (docs/ios.md: an import runs the same
/// recording engine over the file, as the command line's `import` does).
@MainActor
@Observable
final class ImportModel {
    private(set) var waiting: [URL] = []

    func enqueue(_ urls: [URL]) {
        waiting.append(contentsOf: urls)
    }
}
