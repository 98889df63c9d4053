import LiveTranscriberCore
import SwiftUI
import WidgetKit

/// Home Screen and Lock Screen shortcuts into the app: record, recordings, settings (the core's
/// `QuickLink.all`). Static: one entry, never refreshed.
struct QuickLinksWidget: Widget {
    static let kind = "app.livetranscriber.quick-links"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: Self.kind, provider: QuickLinksProvider()) { _ in
            QuickLinksView()
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("LiveTranscriber")
        .description("Start a recording or open your recordings and settings.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryCircular])
    }
}

struct QuickLinksEntry: TimelineEntry {
    let date: Date
}

struct QuickLinksProvider: TimelineProvider {
    func placeholder(in context: Context) -> QuickLinksEntry { QuickLinksEntry(date: .now) }

    func getSnapshot(in context: Context, completion: @escaping (QuickLinksEntry) -> Void) {
        completion(QuickLinksEntry(date: .now))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<QuickLinksEntry>) -> Void) {
        completion(Timeline(entries: [QuickLinksEntry(date: .now)], policy: .never))
    }
}

struct QuickLinksView: View {
    @Environment(\.widgetFamily) private var family

    var body: some View {
        switch family {
        case .systemMedium:
            HStack(spacing: 12) {
                ForEach(QuickLink.all) { quick in
                    Link(destination: quick.link.url) { QuickLinkLabel(quick: quick) }
                        .frame(maxWidth: .infinity)
                }
            }
        case .accessoryCircular:
            Image(systemName: QuickLink.record.systemImageName)
                .font(.title2)
                .widgetURL(QuickLink.record.link.url)
                .accessibilityLabel(QuickLink.record.title)
        default:
            QuickLinkLabel(quick: .record)
                .widgetURL(QuickLink.record.link.url)
        }
    }
}

private struct QuickLinkLabel: View {
    let quick: QuickLink

    var body: some View {
        VStack(spacing: 6) {
            Image(systemName: quick.systemImageName).font(.title2)
            Text(quick.title).font(.caption.weight(.semibold))
        }
    }
}
