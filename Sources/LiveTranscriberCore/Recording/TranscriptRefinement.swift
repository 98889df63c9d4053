import Foundation

/// The second pass over a saved live recording: its audio transcribed once more as a file, and
/// that transcript saved in place of the live one (which is kept as the previous transcript, so
/// `retranscribe --restore` puts it back).
///
/// Live finals are decoded a sentence or a clause at a time, with at most a few seconds of the
/// audio before them and none after, so that they appear within a second or two. A file is
/// decoded with whole windows of up to 30 s around each utterance (`UtterancePacking`), which is
/// how whisper.cpp decodes a whole file, and on hard speech (whispered, falsetto) Whisper needs
/// that context: on the ten speech sets of BENCHMARKS.md, each joined into one recording, the
/// live path made 65 word errors, the file path 42 and whisper.cpp's whole-file decode 45 (25, 14
/// and 14 on whispered speech).
/// The live transcript is what the Live Activity and the terminal show while recording; the
/// library keeps the refined one.
public enum TranscriptRefinement {
    /// What happens to a recording just saved.
    public enum Decision: Sendable, Equatable {
        /// It is transcribed again as a file.
        case refine
        /// The live transcript stays, and nothing needs saying: the engine gains nothing from a
        /// second pass, the user turned it off, or there is no audio to speak of.
        case keepLive
        /// The live transcript stays because a signal ended the recording; `skippedNote` says so.
        case keepLiveAfterSignal
    }

    /// Whether a recording just saved is transcribed again as a file.
    ///
    /// - Parameters:
    ///   - engine: the engine that transcribed it live. Only an engine whose live decodes differ
    ///     from its file decodes gains from a second pass (`SpeechEngineKind.decodesFilesWithMoreContext`).
    ///   - turnedOff: the user asked for none (`record --no-refine`).
    ///   - audioSeconds: seconds of audio saved; nothing under `Recording.shortestAudioSeconds`.
    ///   - stoppedByTermination: the recording was ended by SIGTERM or SIGHUP (a service manager,
    ///     a closed terminal), which asks the process to end now.
    public static func decision(engine: SpeechEngineKind, turnedOff: Bool, audioSeconds: Double, stoppedByTermination: Bool) -> Decision {
        guard engine.decodesFilesWithMoreContext, !turnedOff, audioSeconds >= Recording.shortestAudioSeconds else { return .keepLive }
        return stoppedByTermination ? .keepLiveAfterSignal : .refine
    }

    /// The line once the refined transcript is saved: "Refined the transcript: 5 segments; the
    /// live one is kept ('livetranscriber retranscribe ID --restore' puts it back)."
    public static func doneLine(segments: Int, recordingID: String) -> String {
        "Refined the transcript: \(Plural.count(segments, "segment")); the live one is kept "
            + "('livetranscriber retranscribe \(recordingID) --restore' puts it back)."
    }

    /// The note when the second pass was stopped or skipped: the live transcript is saved, and
    /// `retranscribe` does the second pass later.
    public static func skippedNote(recordingID: String, stopped: Bool) -> String {
        (stopped ? "the transcript was not refined" : "the transcript was not refined (the recording was ended by a signal)")
            + "; the live one is saved. 'livetranscriber retranscribe \(recordingID)' refines it."
    }
}

extension SpeechEngineKind {
    /// True when the engine decodes a file with more context than it decodes live, so that a
    /// recording transcribed again as a file reads better: whisper (whole windows around each
    /// utterance against a sentence or clause with a short lead). pocketsphinx decodes both the
    /// same way, as one stream.
    public var decodesFilesWithMoreContext: Bool {
        switch self {
        case .whisper: true
        case .pocketsphinx: false
        }
    }
}
