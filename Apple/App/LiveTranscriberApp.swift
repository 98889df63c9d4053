import LiveTranscriberCore
import SwiftUI

/// The app: three tabs over one `AppModel`. Every link and intent goes through
/// `AppModel.open(_:)`, the one place deep links are handled, from a cold start too.
@main
struct LiveTranscriberApp: App {
    @State private var model = AppModel(dependencies: AppDependencies.live())

    var body: some Scene {
        WindowGroup {
            ContentView(model: model)
                .onOpenURL { url in model.open(url: url) }
                .task {
                    // Links and intents that arrived before the first scene (a cold start from the
                    // Live Activity) were held by the inbox; they are handed over here, in order.
                    await DeepLinkInbox.shared.setHandler { [model] link in model.open(link) }
                    model.launched()
                }
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
