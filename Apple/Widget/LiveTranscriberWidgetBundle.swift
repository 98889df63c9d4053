import SwiftUI
import WidgetKit

/// The widget extension: the recording's Live Activity and the quick-link widgets.
@main
struct LiveTranscriberWidgetBundle: WidgetBundle {
    var body: some Widget {
        RecordingLiveActivity()
        QuickLinksWidget()
    }
}
