import AVFoundation
import LiveTranscriberCore
import SwiftUI

/// One recording: summary and tags, playback, and the transcript. Tapping a line seeks playback
/// to it; the line being played is highlighted (`TranscriptLines.playingIndex`). Speaker labels
/// (made on Linux and synced; the app has no speaker model yet) name the speaker at each turn
/// and colour its lines.
struct RecordingDetailView: View {
    let recording: Recording
    let library: LibraryModel
    @State private var segments: [TranscriptSegment] = []
    @State private var player = PlaybackModel()
    @State private var exported: URL?
    @State private var isEditing = false

    var body: some View {
        List {
            if let working = library.working[recording.id] {
                Label { Text(working) } icon: { ProgressView() }
            }
            if let problem = library.problem {
                Label(problem, systemImage: "exclamationmark.triangle.fill").foregroundStyle(.orange)
            }
            if let summary = recording.summary {
                Section("Summary") { Text(summary) }
            }
            Section {
                HStack {
                    Button(player.isPlaying ? "Pause" : "Play", systemImage: player.isPlaying ? "pause.fill" : "play.fill") {
                        player.toggle()
                        library.haptics.occurred(.playbackToggled)
                    }
                    .labelStyle(.iconOnly)
                    .font(.title2)
                    Text(ElapsedTimeFormat.clock(player.currentSeconds)).monospacedDigit()
                    Spacer()
                    Text(ElapsedTimeFormat.clock(recording.durationSeconds)).monospacedDigit().foregroundStyle(.secondary)
                }
                // A recording made elsewhere in a format iOS cannot read (Opus from Linux): say so.
                if !AudioFormatSupport.avFoundation.canRead(recording.audio.format) {
                    Text("This recording's audio (\(recording.audio.format.rawValue)) cannot be played on iPhone; its transcript is all here.")
                        .font(.footnote).foregroundStyle(.secondary)
                }
            }
            Section("Transcript") {
                let playing = TranscriptLines.playingIndex(at: player.currentSeconds, in: segments)
                ForEach(TranscriptLines.saved(segments, speakers: recording.speakers, recordingLanguage: recording.language)) { line in
                    Button {
                        player.seek(to: TranscriptLines.seekSeconds(for: segments[line.id]))
                        library.haptics.occurred(.transcriptSeek)
                    } label: {
                        TranscriptRow(line: line, isHighlighted: line.id == playing)
                    }
                    .buttonStyle(.plain)
                    .contextMenu {
                        Button("Copy", systemImage: "doc.on.doc") {
                            UIPasteboard.general.string = line.text
                            library.haptics.occurred(.copied)
                        }
                    }
                }
            }
        }
        .navigationTitle(recording.name)
        .toolbar {
            Button("Edit", systemImage: "pencil") { isEditing = true }
            Menu("Transcript", systemImage: "text.badge.checkmark") {
                Button("Re-transcribe with OpenAI", systemImage: "arrow.triangle.2.circlepath") {
                    Task {
                        await library.retranscribeWithOpenAI(recording)
                        reloadTranscript()
                    }
                }
                Button("Restore Previous Transcript", systemImage: "arrow.uturn.backward") {
                    library.restorePreviousTranscript(recording)
                    reloadTranscript()
                }
                Button("Summarize with OpenAI", systemImage: "sparkles") {
                    Task { await library.summarizeWithOpenAI(recording) }
                }
            }
            .disabled(library.working[recording.id] != nil)
            Menu("Export", systemImage: "square.and.arrow.up") {
                ForEach(ExportFormat.allCases, id: \.self) { format in
                    Button(format.rawValue.uppercased()) {
                        exported = try? library.exportFile(recording, format: format)
                        library.haptics.occurred(exported == nil ? .failure : .primaryAction)
                    }
                }
            }
        }
        .sheet(isPresented: $isEditing) {
            EditRecordingSheet(recording: recording, library: library)
        }
        .sheet(item: $exported) { url in
            ShareLink(item: url) { Label("Share \(url.lastPathComponent)", systemImage: "square.and.arrow.up") }
                .presentationDetents([.height(120)])
        }
        .task {
            reloadTranscript()
            if let url = try? library.library?.audioFile(of: recording.id) { player.load(url) }
        }
        .onDisappear { player.stop() }
    }

    private func reloadTranscript() {
        segments = (try? library.library?.transcript(of: recording.id)) ?? []
    }
}

/// Rename and retag a saved recording, with the same rules as the save sheet (`RecordingName`,
/// `RecordingTags`).
struct EditRecordingSheet: View {
    let recording: Recording
    let library: LibraryModel
    @Environment(\.dismiss) private var dismiss
    @State private var name = ""
    @State private var tags = ""
    @State private var problem: String?

    var body: some View {
        NavigationStack {
            Form {
                TextField("Name", text: $name)
                TextField("Tags", text: $tags).textInputAutocapitalization(.never)
                if let problem { Text(problem).foregroundStyle(.red) }
            }
            .navigationTitle("Edit")
            .toolbar {
                ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Done") {
                        do {
                            if name != recording.name { try library.rename(recording, to: name) }
                            try library.setTags(recording, list: tags)
                            dismiss()
                        } catch {
                            problem = Sentence.capitalized(String(describing: error))
                        }
                    }
                }
            }
            .onAppear {
                name = recording.name
                tags = recording.tags.joined(separator: ", ")
            }
        }
    }
}

extension URL: @retroactive Identifiable {
    public var id: String { absoluteString }
}

/// Playback of one recording with its position, for the highlight.
@MainActor
@Observable
final class PlaybackModel {
    private(set) var isPlaying = false
    /// Seconds from the start of the recording.
    private(set) var currentSeconds: Double = 0
    private var player: AVAudioPlayer?
    private var ticker: Task<Void, Never>?

    func load(_ url: URL) {
        player = try? AVAudioPlayer(contentsOf: url)
        player?.prepareToPlay()
    }

    func toggle() {
        guard let player else { return }
        if player.isPlaying { pause() } else { play() }
    }

    func seek(to seconds: Double) {
        player?.currentTime = seconds
        currentSeconds = seconds
        if !isPlaying { play() }
    }

    func stop() {
        pause()
        player = nil
    }

    private func play() {
        try? AVAudioSession.sharedInstance().setCategory(.playback)
        player?.play()
        isPlaying = true
        ticker = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                guard let self, let player = self.player else { return }
                self.currentSeconds = player.currentTime
                if !player.isPlaying { self.isPlaying = false; return }
            }
        }
    }

    private func pause() {
        player?.pause()
        isPlaying = false
        ticker?.cancel()
    }
}
