import Foundation
import LiveTranscriberCore
import Observation
import Speech
import UIKit

/// Settings: stored in the app's defaults (the Lock Screen privacy switch in the app group's,
/// which the widget reads), the OpenAI key in the Keychain.
@MainActor
@Observable
final class SettingsModel {
    /// BCP 47 tag of the transcription language.
    var language: String {
        didSet { defaults.set(language, forKey: Keys.language) }
    }
    /// The stored audio format of new recordings.
    var fileFormat: RecordingAudioFormat {
        didSet { defaults.set(fileFormat.rawValue, forKey: Keys.fileFormat) }
    }
    /// Keep the library in iCloud Drive.
    var iCloudEnabled: Bool {
        didSet {
            defaults.set(iCloudEnabled, forKey: Keys.iCloud)
            opened?.watcher?.stop()
            opened = nil
            onLibraryChanged?()
        }
    }
    /// Hide the transcript on the Lock Screen's Live Activity.
    var hideTranscriptOnLockScreen: Bool {
        didSet { SharedSettings.setHideTranscriptOnLockScreen(hideTranscriptOnLockScreen) }
    }
    var hapticsEnabled: Bool {
        didSet {
            defaults.set(hapticsEnabled, forKey: Keys.haptics)
            onHapticsChanged?(hapticsEnabled)
        }
    }
    /// The OpenAI model that re-transcribes recordings; whisper-1 keeps its own segment times.
    var transcriptionModel: TranscriptionModel {
        didSet { defaults.set(transcriptionModel.rawValue, forKey: Keys.transcriptionModel) }
    }
    /// Languages the on-device recognizer supports (loaded from the Speech framework).
    private(set) var supportedLanguages: [String] = []
    var onHapticsChanged: ((Bool) -> Void)?
    /// Called when the library's contents changed underneath the screens (iCloud Drive brought
    /// something, or the iCloud switch moved to another library).
    var onLibraryChanged: (() -> Void)?

    /// The formats iPhone recordings can be stored in: WAV, FLAC and M4A (AAC, encoded on save).
    static let fileFormats: [RecordingAudioFormat] = AudioFormatSupport.avFoundation.writes

    private let defaults = UserDefaults.standard
    private let dependencies: AppDependencies
    private var opened: OpenedLibrary?

    private enum Keys {
        static let language = "language"
        static let fileFormat = "fileFormat"
        static let iCloud = "iCloudEnabled"
        static let haptics = "hapticsEnabled"
        static let transcriptionModel = "openAITranscriptionModel"
    }

    init(dependencies: AppDependencies) {
        self.dependencies = dependencies
        language = defaults.string(forKey: Keys.language) ?? Locale.current.identifier(.bcp47)
        fileFormat = defaults.string(forKey: Keys.fileFormat).flatMap(RecordingAudioFormat.init(rawValue:)) ?? .wav
        iCloudEnabled = defaults.bool(forKey: Keys.iCloud)
        hideTranscriptOnLockScreen = SharedSettings.presentation.hideTranscriptOnLockScreen
        hapticsEnabled = defaults.object(forKey: Keys.haptics) as? Bool ?? true
        transcriptionModel = defaults.string(forKey: Keys.transcriptionModel).flatMap(TranscriptionModel.init(rawValue:)) ?? .whisper1
    }

    /// The language's name in the user's language ("English (United States)").
    var languageName: String {
        Locale.current.localizedString(forIdentifier: language) ?? language
    }

    /// The open library in the folder the iCloud switch chooses.
    func openLibrary() throws -> OpenedLibrary {
        if let opened { return opened }
        let library = try dependencies.openLibrary(dependencies.libraryLocation(iCloudEnabled && LibraryFolders.isICloudAvailable))
        opened = library
        library.watcher?.onRefreshed = { [weak self] in self?.onLibraryChanged?() }
        library.watcher?.start()
        return library
    }

    /// "12 recordings", or why the library cannot be opened.
    var storageStatus: String {
        do {
            let count = try openLibrary().library.list().count
            return count == 1 ? "1 recording" : "\(count) recordings"
        } catch {
            return String(describing: error)
        }
    }

    /// The OpenAI API key as stored in the Keychain; empty when there is none.
    var openAIKey: String { dependencies.keychain.read() ?? "" }

    /// Stores `value` as the OpenAI API key, trimmed; an empty value removes the key.
    /// - Throws: `OpenAIError.malformedKey` (the core's rule for a key that cannot go in a header),
    ///   `KeychainError`. Nothing is stored then.
    func saveOpenAIKey(_ value: String) throws {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { _ = try OpenAIAPIKey(trimmed, source: "Settings", place: .appSettings) }
        try dependencies.keychain.write(trimmed)
    }

    /// OpenAI's API with the key from the Keychain, for re-transcription and summaries.
    /// - Throws: `OpenAIError.missingKeyInSettings`, `.malformedKey`.
    func openAIEndpoint() throws -> OpenAIEndpoint {
        let stored = openAIKey
        guard !stored.isEmpty else { throw OpenAIError.missingKeyInSettings }
        return OpenAIEndpoint(baseURL: OpenAIEndpoint.defaultBaseURL,
                              apiKey: try OpenAIAPIKey(stored, source: "Settings", place: .appSettings))
    }

    /// Fills `supportedLanguages` from the on-device recognizer.
    func loadLanguages() async {
        supportedLanguages = await SpeechTranscriber.supportedLocales.map { $0.identifier(.bcp47) }.sorted()
    }

    /// Lines for the developer diagnostics card.
    func diagnostics(analyzerFormat: String?) -> [(String, String)] {
        [
            ("Device", UIDevice.current.model),
            ("System", "\(UIDevice.current.systemName) \(UIDevice.current.systemVersion)"),
            ("Speech pipeline", "SpeechAnalyzer + SpeechTranscriber (on device)"),
            ("Analyzer input", analyzerFormat ?? "not prepared yet"),
            ("Capture", "AVCaptureSession, stereo built-in microphone"),
            ("Summaries", FoundationLanguageModel.unavailableReason ?? "Apple Intelligence (on device)"),
            ("Cloud re-transcription", "OpenAI \(transcriptionModel.rawValue), \(OpenAIEndpoint.defaultBaseURL.host ?? "")"),
        ]
    }
}
