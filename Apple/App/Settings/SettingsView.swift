import LiveTranscriberCore
import SwiftUI

/// Settings: language (locked while recording), recording format, storage and iCloud, Lock
/// Screen privacy, the OpenAI key, haptics, the privacy card and developer diagnostics.
struct SettingsView: View {
    @Bindable var model: SettingsModel
    let recordPhase: RecordingSession.Phase
    var analyzerFormat: String?
    @State private var apiKey = ""
    @State private var keyProblem: String?

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
                Section {
                    SecureField("API key", text: $apiKey)
                        .textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                        .onSubmit(saveKey)
                    if let keyProblem { Text(keyProblem).foregroundStyle(.red) }
                    Picker("Re-transcription model", selection: $model.transcriptionModel) {
                        ForEach(TranscriptionModel.allCases, id: \.self) { Text($0.rawValue).tag($0) }
                    }
                } header: {
                    Text("OpenAI")
                } footer: {
                    Text(PrivacyText.openAIKey)
                }
                Section {
                    Toggle("Haptics", isOn: $model.hapticsEnabled)
                }
                Section("Privacy") {
                    Text(PrivacyText.onDevice)
                    Text(PrivacyText.uploads)
                    Text(PrivacyText.summaryUploads)
                    Text(PrivacyText.storage)
                }
                Section("Developer") {
                    ForEach(model.diagnostics(analyzerFormat: analyzerFormat), id: \.0) { row in
                        LabeledContent(row.0, value: row.1)
                    }
                }
            }
            .navigationTitle("Settings")
            .onDisappear(perform: saveKey)
            .task {
                apiKey = model.openAIKey
                await model.loadLanguages()
            }
        }
    }
}

extension SettingsView {
    /// Stores the key field in the Keychain when it changed; a malformed key is refused with the core's sentence.
    private func saveKey() {
        guard apiKey.trimmingCharacters(in: .whitespacesAndNewlines) != model.openAIKey else {
            keyProblem = nil
            return
        }
        do {
            try model.saveOpenAIKey(apiKey)
            keyProblem = nil
        } catch {
            keyProblem = Sentence.capitalized(String(describing: error))
        }
    }
}

/// What the privacy card says.
enum PrivacyText {
    static let onDevice = "Recording, live transcription and Summarize (Apple Intelligence, or the offline summary) run on this iPhone. Audio and transcripts stay on it unless you choose one of the two OpenAI actions below."
    static let uploads = "Audio leaves the iPhone only when you choose Re-transcribe with OpenAI on a saved recording: that recording's audio (the whole file, or WAV pieces of under 25 MB for a long one) is sent to OpenAI with your API key, and the new transcript replaces the old one, which is kept for Restore."
    static let summaryUploads = "Transcript text leaves the iPhone only when you choose Summarize with OpenAI: that recording's transcript is sent to OpenAI's chat model, never its audio."
    static let openAIKey = "Kept in the Keychain on this iPhone only, never synced, sent only to api.openai.com. Needed only for Re-transcribe and Summarize with OpenAI."
    static let storage = "Recordings are kept in the app's private folder, or in your private iCloud Drive folder for the app when iCloud Drive is on. The search index is rebuilt on each device and never uploaded."
}
