import ActivityKit
import LiveTranscriberCore
import SwiftUI
import WidgetKit

/// The recording's Live Activity: the Lock Screen card and the Dynamic Island, each drawn from
/// the core's presentation model for the content state, with no rule of its own.
struct RecordingLiveActivity: Widget {
    var body: some WidgetConfiguration {
        ActivityConfiguration(for: RecordingActivityAttributes.self) { context in
            LockScreenView(model: LockScreenPresentation(
                attributes: context.attributes, content: context.state, settings: SharedSettings.presentation))
                .activityBackgroundTint(Color(.secondarySystemBackground))
                .widgetURL(QuickLink.activityTapLink.url)
        } dynamicIsland: { context in
            let expanded = ExpandedIslandPresentation(attributes: context.attributes, content: context.state)
            let compact = CompactIslandPresentation(content: context.state)
            let minimal = MinimalIslandPresentation(content: context.state)
            return DynamicIsland {
                DynamicIslandExpandedRegion(.leading) {
                    StatusBlock(style: expanded.status).padding(.leading, 4)
                }
                DynamicIslandExpandedRegion(.trailing) {
                    TimerBlock(timer: expanded.timer).padding(.trailing, 4)
                }
                DynamicIslandExpandedRegion(.bottom) {
                    ExpandedIslandBottom(model: expanded)
                }
            } compactLeading: {
                StatusGlyph(glyph: compact.glyph, color: compact.dotColor)
            } compactTrailing: {
                TimerText(timer: compact.timer)
                    .monospacedDigit()
                    .frame(maxWidth: 44)
            } minimal: {
                StatusGlyph(glyph: minimal.glyph, color: minimal.dotColor)
            }
            .widgetURL(QuickLink.activityTapLink.url)
            .keylineTint(minimal.dotColor.color)
        }
    }
}

/// The expanded island's bottom region: transcript, then language, count and stop.
private struct ExpandedIslandBottom: View {
    let model: ExpandedIslandPresentation

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            Text(model.transcript)
                .font(.callout)
                .lineLimit(ExpandedIslandPresentation.transcriptLineLimit)
                .frame(maxWidth: .infinity, alignment: .leading)
            HStack {
                MetricBlock(title: "Language", value: model.language)
                MetricBlock(title: "Segments", value: "\(model.segmentCount)")
                    .accessibilityLabel(model.segmentCountText)
                Spacer()
                if let stop = model.stopAction { StopButton(link: stop) }
            }
        }
        .padding(.horizontal, 4)
    }
}
