import Foundation
import LiveTranscriberCore

/// The one place the Linux front end builds a recording engine's services: the library store,
/// the speech engine, libsoxr, libsndfile, the activity client and the system clock.
public enum LinuxRecordingServices {
    /// - Parameters:
    ///   - store: the library the draft goes to.
    ///   - activity: where the Live Activity's calls go (a JSON Lines feed on Linux).
    ///   - engine, model: the speech engine and the model file the user brought (nil: the installed one).
    ///   - mode: `.live` for a recording (microphone, `--input`, a pipe), `.fileInBackground` for an
    ///     import: finals only, decoded as `retranscribe` decodes the file (`RecognitionMode`).
    ///   - clock: the system clock unless a test gives another.
    ///   - vocabulary: the recognizer's vocabulary, already bounded (`LinuxSpeechEngines.boundedVocabulary`).
    ///   - recentLanguage: the library's recent language (`RecentLanguage.of`), for a recording too short to identify.
    ///   - languageWarning: told the one line when the speech contradicts the language named.
    public static func make(
        store: LibraryStore, activity: any ActivityClient,
        engine: SpeechEngineKind, model: String? = nil, mode: RecognitionMode,
        clock: any WallClock = SystemClock(), vocabulary: Vocabulary = Vocabulary(), recentLanguage: String? = nil,
        languageWarning: @escaping (String) -> Void = { _ in }
    ) -> RecordingEngineServices<LibraryStore> {
        RecordingEngineServices(
            store: store,
            makeRecognizer: { language in
                try LinuxSpeechEngines.make(engine, language: language, model: model, mode: mode, vocabulary: vocabulary,
                                            recentLanguage: recentLanguage, languageWarning: languageWarning)
            },
            makeResampler: { try SoxrResampler(inputRate: $0, outputRate: $1, channels: $2) },
            makeWriter: { try SndFileWriter(path: $0.path, format: $1, fileFormat: $2) },
            activity: activity,
            clock: clock,
            retranscribe: { file, language in
                try LocalFileTranscriber(engine: engine, model: model, recentLanguage: recentLanguage)
                    .transcript(of: file, language: language, vocabulary: vocabulary, languageWarning: languageWarning).segments
            }
        )
    }
}
