import Foundation
import LiveTranscriberCore

/// The one place the Linux front end builds a recording engine's services: the library store,
/// the speech engine, libsoxr, libsndfile, the activity client and the system clock.
public enum LinuxRecordingServices {
    /// - Parameters:
    ///   - store: the library the draft goes to.
    ///   - activity: where the Live Activity's calls go (a JSON Lines feed on Linux).
    ///   - clock: the system clock unless a test gives another.
    public static func make(
        store: LibraryStore, activity: any ActivityClient, clock: any WallClock = SystemClock()
    ) -> RecordingEngineServices<LibraryStore> {
        RecordingEngineServices(
            store: store,
            makeRecognizer: { _ in try PocketSphinxRecognizer(model: .englishUS) },
            makeResampler: { try SoxrResampler(inputRate: $0, outputRate: $1, channels: $2) },
            makeWriter: { try SndFileWriter(path: $0.path, format: $1, fileFormat: $2) },
            activity: activity,
            clock: clock,
            retranscribe: { file, language in try PocketSphinxFileTranscriber().transcribe(audioFile: file, language: language) }
        )
    }
}
