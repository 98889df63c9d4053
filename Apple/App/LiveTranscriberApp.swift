import LiveTranscriberCore
import SwiftUI

/// The app: three tabs over one `AppModel`. Every link and intent goes through
/// `AppModel.open(_:)`, the one place deep links are handled, from a cold start too.
@main
struct LiveTranscriberApp: App {
    @State private var model: AppModel

    init() {
        let model = AppModel(dependencies: AppDependencies.live())
        _model = State(initialValue: model)
        // At launch, not when a window appears: the stop intent can launch the app in the
        // background, with no window. Links and intents that arrived earlier were held by the
        // inbox and are handed over here, in order.
        Task { @MainActor in
            model.launched()
            await DeepLinkInbox.shared.setHandler { link in model.open(link) }
        }
    }

    var body: some Scene {
        WindowGroup {
            ContentView(model: model)
                .onOpenURL { url in model.open(url: url) }
        }
    }
}

/// The three tabs.
struct ContentView: View {
    @Bindable var model: AppModel

    var body: some View {
        TabView(selection: $model.selectedTab) {
            Tab("Record", systemImage: "mic.fill", value: AppTab.record) {
                RecordView(model: model.record, settings: model.settings)
            }
            Tab("Recordings", systemImage: "list.bullet", value: AppTab.recordings) {
                LibraryView(model: model.library)
            }
            Tab("Settings", systemImage: "gearshape", value: AppTab.settings) {
                SettingsView(model: model.settings, recordPhase: model.record.phase, analyzerFormat: model.record.analyzerFormat)
            }
        }
        .onChange(of: model.selectedTab) { model.haptics.occurred(.navigation) }
        .alert("LiveTranscriber", isPresented: $model.isShowingMessage) {
            Button("OK", role: .cancel) {}
        } message: {
            Text(model.message ?? "")
        }
    }
}
