import Foundation
import LiveTranscriberCore

/// What happened during a recording, for `record --stats` and the benchmark.
struct RecordingStats {
    var interimResults: Int
    var finalSegments: Int
    var activity: CountingActivityClient.Counts

    /// One line: "stats: 42 interim results, 5 final segments; Live Activity: 1 start, 6 updates, 1 end; largest content state 830 bytes".
    var line: String {
        func count(_ number: Int, _ noun: String) -> String { Plural.count(number, noun) }
        return "stats: \(count(interimResults, "interim result")), \(count(finalSegments, "final segment")); "
            + "Live Activity: \(count(activity.starts, "start")), \(count(activity.updates, "update")), \(count(activity.ends, "end")); "
            + "largest content state \(activity.largestPayloadBytes) bytes"
    }
}

/// Why a recording ended badly.
package enum RecordingInterrupted: Error, CustomStringConvertible {
    case noAudio
    /// Stopped (q, Ctrl-C, SIGTERM) before any audio was read.
    case stoppedBeforeAudio
    case cancelled
    /// A failure in the middle: what was recorded was saved as `savedID`; `untranscribed` is its
    /// audio left without a transcript (decodes abandoned at the failure), if any.
    case failed(reason: String, savedID: String, seconds: Double, untranscribed: UntranscribedAudio? = nil)

    /// What `import` (and the web page's import) says of a file that was `noAudio`.
    package static func noAudioImported(from file: String) -> String {
        "\(file) holds no audio (less than 0.1 s, too short to transcribe); nothing was imported from it"
    }

    package var description: String {
        switch self {
        case .noAudio:
            return "no audio was recorded (the input was empty, or held less than 0.1 s of audio, too short to transcribe); nothing was saved"
        case .stoppedBeforeAudio:
            return "stopped before any audio was recorded; nothing was saved"
        case .cancelled:
            return "stopped before the end of the file; nothing was saved from it"
        case .failed(let reason, let id, let seconds, let untranscribed):
            let rest = untranscribed.map { "; \($0.note(recordingID: id))" } ?? ""
            return "\(reason); the \(ElapsedTimeFormat.clock(seconds)) recorded before it were saved as \(id)\(rest)"
        }
    }
}
