import AppIntents
import LiveTranscriberCore
import SwiftUI
import WidgetKit

/// The status dot and words ("Recording").
struct StatusBlock: View {
    let style: ActivityStatusStyle

    var body: some View {
        HStack(spacing: 6) {
            Circle().fill(style.dotColor.color).frame(width: 8, height: 8)
            Text(style.text).font(.subheadline.weight(.semibold))
        }
    }
}

/// The status symbol of the compact and minimal island, without a ring so it is not clipped.
struct StatusGlyph: View {
    let glyph: ActivityStatusStyle.Glyph
    let color: ActivityStatusStyle.DotColor

    var body: some View {
        Image(systemName: glyph.systemImageName)
            .foregroundStyle(color.color)
            .accessibilityLabel(glyph.rawValue)
    }
}

/// The clock: ticked by the system while recording, fixed text otherwise.
struct TimerText: View {
    let timer: TimerDisplay

    var body: some View {
        switch timer {
        case .ticking(let reference):
            // The system ticks this; the app sends no per-second updates.
            Text(timerInterval: reference...Date.distantFuture, countsDown: false)
        case .fixed(let text):
            Text(text)
        }
    }
}

/// The fixed-width clock of the Lock Screen and the expanded island.
struct TimerBlock: View {
    let timer: TimerDisplay

    var body: some View {
        TimerText(timer: timer)
            .font(.title3.weight(.semibold))
            .monospacedDigit()
            .multilineTextAlignment(.trailing)
            .frame(width: 84, alignment: .trailing)
    }
}

/// A small labelled value of the footer (language, segment count).
struct MetricBlock: View {
    let title: String
    let value: String

    var body: some View {
        VStack(alignment: .leading, spacing: 1) {
            Text(title).font(.caption2).foregroundStyle(.secondary)
            Text(value).font(.caption.weight(.semibold)).monospacedDigit()
        }
    }
}

/// The red stop action, present only while recording. It runs `StopRecordingIntent` in the app;
/// it never deletes anything.
struct StopButton: View {
    let link: LiveTranscriberDeepLink

    var body: some View {
        if case .stopRecording(let session) = link {
            Button(intent: StopRecordingIntent(recordingID: session ?? "")) {
                Label("Stop", systemImage: "stop.fill")
                    .font(.caption.weight(.semibold))
            }
            .tint(.red)
        }
    }
}
