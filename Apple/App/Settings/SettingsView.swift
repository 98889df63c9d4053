import LiveTranscriberCore
import SwiftUI

/// Settings: language (locked while recording), recording format, storage and iCloud, Lock
/// Screen privacy, the OpenAI key, haptics, the privacy card and developer diagnostics.
struct SettingsView: View {
    @Bindable var model: SettingsModel
    let recordPhase: RecordingSession.Phase
    var analyzerFormat: String?
    @State private var apiKey = ""

    var body: some View {
        NavigationStack {
            Form {
                Section("Transcription") {
                    Picker("Language", selection: $model.language) {
                        ForEach(model.supportedLanguages.isEmpty ? [model.language] : model.supportedLanguages, id: \.self) {
                            Text(Locale.current.localizedString(forIdentifier: $0) ?? $0).tag($0)
                        }
                    }
                    .disabled(!recordPhase.allowsLanguageChange)
                    Picker("Recording format", selection: $model.fileFormat) {
                        ForEach(SettingsModel.fileFormats, id: \.self) { Text($0.displayName).tag($0) }
                    }
                }
                Section("Storage") {
                    Toggle("iCloud Drive", isOn: $model.iCloudEnabled)
                        .disabled(!LibraryFolders.isICloudAvailable)
                    LabeledContent("Library", value: model.iCloudEnabled && LibraryFolders.isICloudAvailable
                                   ? "iCloud Drive" : "On this iPhone")
                    LabeledContent("Status", value: model.storageStatus)
                }
                Section("Lock Screen") {
                    Toggle("Hide transcript on Lock Screen", isOn: $model.hideTranscriptOnLockScreen)
                }
                Section("OpenAI") {
                    SecureField("API key", text: $apiKey)
                        .textInputAutocapitalization(.never)
                        .onSubmit { model.openAIKey = apiKey }
                }
                Section {
                    Toggle("Haptics", isOn: $model.hapticsEnabled)
                }
                Section("Privacy") {
                    Text(PrivacyText.onDevice)
                    Text(PrivacyText.uploads)
                    Text(PrivacyText.storage)
                }
                Section("Developer") {
                    ForEach(model.diagnostics(analyzerFormat: analyzerFormat), id: \.0) { row in
                        LabeledContent(row.0, value: row.1)
                    }
                }
            }
            .navigationTitle("Settings")
            .task {
                apiKey = model.openAIKey
                await model.loadLanguages()
            }
        }
    }
}

/// What the privacy card says.
enum PrivacyText {
    static let onDevice = "Recording, live transcription and summaries run on this iPhone. Audio and transcripts stay on it."
    static let uploads = "Audio leaves the iPhone only when you choose Re-transcribe with OpenAI on a saved recording: that recording's audio is sent to OpenAI with your API key."
    static let storage = "Recordings are kept in the app's private folder, or in your private iCloud Drive folder for the app when iCloud Drive is on. The search index is rebuilt on each device and never uploaded."
}
