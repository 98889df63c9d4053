import LiveTranscriberCore
import SwiftUI

/// The Record tab: status, timer and level on top, the live transcript (newest first, the
/// interim line in amber), and a floating dock with record, pause/resume and stop.
struct RecordView: View {
    @Bindable var model: RecordModel
    let settings: SettingsModel

    var body: some View {
        NavigationStack {
            List {
                Section {
                    HStack {
                        if let status = model.status {
                            Circle().fill(status.dotColor.color).frame(width: 10, height: 10)
                            Text(status.text).font(.headline)
                        } else {
                            Text(settings.languageName).font(.headline).foregroundStyle(.secondary)
                        }
                        Spacer()
                        Text(model.timerText).font(.title2.monospacedDigit().weight(.semibold))
                    }
                    ProgressView(value: model.meterFraction)
                        .tint(.red)
                        .accessibilityLabel("Input level")
                    if let failure = model.failure {
                        Label(failure, systemImage: "exclamationmark.triangle.fill").foregroundStyle(.orange)
                    }
                }
                Section("Transcript") {
                    ForEach(model.lines) { line in
                        TranscriptRow(line: line, isHighlighted: false)
                    }
                }
            }
            .navigationTitle("Record")
            .safeAreaInset(edge: .bottom) { dock }
            .sheet(isPresented: $model.isShowingSaveSheet) {
                SaveSheet(model: model)
            }
        }
    }

    @ViewBuilder private var dock: some View {
        HStack(spacing: 24) {
            switch model.phase {
            case .recording:
                Button("Pause", systemImage: "pause.fill") { model.pause() }
                Button("Stop", systemImage: "stop.fill", role: .destructive) { model.stop() }
            case .paused:
                Button("Resume", systemImage: "mic.fill") { model.resume() }
                Button("Stop", systemImage: "stop.fill", role: .destructive) { model.stop() }
            case .preparing, .stopping:
                ProgressView()
            case .draft:
                Button("Save…", systemImage: "square.and.arrow.down") { model.isShowingSaveSheet = true }
            case .idle, .saved, .discarded:
                Button("Record", systemImage: "mic.fill") { Task { await model.start() } }
                    .tint(.red)
            }
        }
        .labelStyle(.iconOnly)
        .font(.title)
        .buttonStyle(.borderedProminent)
        .padding()
        .glassEffect()
    }
}

/// One transcript line: its start time in a pill (red for finals) and its text (amber while
/// interim).
struct TranscriptRow: View {
    let line: TranscriptLine
    let isHighlighted: Bool

    /// One colour per speaker number, the same six as the web page's (`voice-1`…`voice-6`).
    private var voiceColor: Color? {
        guard let voice = line.voice else { return nil }
        let palette: [Color] = [.blue, .orange, .green, .purple, .red, .teal]
        return palette[(voice - 1) % palette.count]
    }

    var body: some View {
        HStack(alignment: .firstTextBaseline, spacing: 10) {
            Text(line.timeText ?? "…")
                .font(.caption.monospacedDigit().weight(.semibold))
                .padding(.horizontal, 6)
                .padding(.vertical, 2)
                .background(line.isInterim ? Color.orange.opacity(0.2) : Color.red.opacity(0.15), in: .capsule)
            VStack(alignment: .leading, spacing: 2) {
                if let speaker = line.speakerName {
                    Text(speaker).font(.caption.weight(.semibold)).foregroundStyle(voiceColor ?? .secondary)
                }
                Text((line.language.map { "(\($0)) " } ?? "") + line.text)
                    .foregroundStyle(line.isInterim ? Color.orange : Color.primary)
            }
        }
        .overlay(alignment: .leading) {
            if let voiceColor {
                Rectangle().fill(voiceColor).frame(width: 3).offset(x: -12)
            }
        }
        .listRowBackground(isHighlighted ? Color.accentColor.opacity(0.15) : nil)
    }
}
