import LiveTranscriberCore
import SwiftUI
import WidgetKit

/// The Lock Screen card (seed 000): status top left, timer top right, the newest final text in
/// the middle, language and segment count in the footer, stop while recording.
struct LockScreenView: View {
    let model: LockScreenPresentation

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack(alignment: .top) {
                StatusBlock(style: model.status)
                Spacer()
                TimerBlock(timer: model.timer)
            }
            if let transcript = model.transcript {
                Text(transcript)
                    .font(.callout)
                    .lineLimit(LockScreenPresentation.transcriptLineLimit)
                    .frame(maxWidth: .infinity, alignment: .leading)
            } else {
                Text(LockScreenPresentation.hiddenTranscriptText)
                    .font(.callout)
                    .foregroundStyle(.secondary)
            }
            HStack(alignment: .bottom) {
                MetricBlock(title: "Language", value: model.language)
                MetricBlock(title: "Segments", value: "\(model.segmentCount)")
                    .accessibilityLabel(model.segmentCountText)
                Spacer()
                if let stop = model.stopAction { StopButton(link: stop) }
            }
        }
        .padding(12)
    }
}
