import Foundation

/// What a recording does with transcription that runs behind its audio: a recognizer that decodes
/// whole utterances on another thread (Whisper) falls behind a file read at full speed or a busy
/// machine.
///
/// - Reading ahead: a file input waits while more than `readAheadLimitSeconds` of audio read has no
///   transcript yet, so the audio waiting for a decode (and the memory holding it) stays bounded
///   whatever the file's length, and progress (`RecordingEngine.secondsTranscribed`) follows the
///   decoding instead of racing ahead of it. Live input cannot wait and is not held back.
/// - Stopping: a stop request (q, Ctrl-C, SIGTERM) leaves the pending decodes `stopGraceSeconds`
///   to finish, then abandons the rest (the decode in flight is cancelled and joined). The saved
///   recording holds all the audio heard and the segments decoded; the audio after them has no
///   transcript (`UntranscribedAudio`), which `retranscribe` makes. The end of the input is not a
///   stop: everything is transcribed.
///
/// ```swift
/// let rule = PendingTranscription()
/// rule.readerMustWait(untranscribedSeconds: 31)                 // true: wait for the decoder
/// rule.abandons(stopRequestedAt: t0, now: t0 + 0.6)             // true: the grace is over
/// ```
public struct PendingTranscription: Sendable, Equatable {
    /// Seconds of audio read without a transcript beyond which a file input waits for the
    /// recognizer. Above the longest utterance the whisper engine cuts (15 s), so reading always
    /// goes on when no decode is running (an utterance still open must grow to be cut).
    public var readAheadLimitSeconds: Double
    /// Seconds of wall time a stop request leaves pending decodes, before they are abandoned.
    /// A stop is answered within about a second: this, plus the decode step in progress (whisper.cpp
    /// checks for cancellation between its encoder and decoder steps), plus closing the file.
    public var stopGraceSeconds: Double

    public init(readAheadLimitSeconds: Double = 30, stopGraceSeconds: Double = 0.5) {
        self.readAheadLimitSeconds = readAheadLimitSeconds
        self.stopGraceSeconds = stopGraceSeconds
    }

    /// True when a file input must wait for the recognizer before reading more.
    /// - Parameter untranscribedSeconds: audio read and not yet transcribed, seconds.
    public func readerMustWait(untranscribedSeconds: Double) -> Bool {
        untranscribedSeconds >= readAheadLimitSeconds
    }

    /// True when pending decodes are to be abandoned: a stop was requested (`stopRequestedAt`, on
    /// the recording's clock) at least `stopGraceSeconds` before `now`. False without a stop request.
    public func abandons(stopRequestedAt: Date?, now: Date) -> Bool {
        guard let stopRequestedAt else { return false }
        return now.timeIntervalSince(stopRequestedAt) >= stopGraceSeconds
    }
}

/// Audio a saved recording holds without a transcript, because a stop (or a failure) came before
/// it was transcribed: from `fromSeconds` to `toSeconds`, seconds from the start of the recording.
public struct UntranscribedAudio: Sendable, Equatable {
    /// Where the transcript stops: seconds from the start of the recording.
    public var fromSeconds: Double
    /// The end of the recorded audio: seconds from the start of the recording.
    public var toSeconds: Double

    public init(fromSeconds: Double, toSeconds: Double) {
        self.fromSeconds = fromSeconds
        self.toSeconds = toSeconds
    }

    /// Seconds of audio without a transcript (never negative).
    public var seconds: Double { max(0, toSeconds - fromSeconds) }

    /// One line for the user: "the last 9:48 of audio (from 0:12) has no transcript: the recording
    /// stopped before it was transcribed; run 'livetranscriber retranscribe ID' to transcribe it all".
    /// Under a second the length is given in tenths, cut down as the clock cuts seconds, at least
    /// 0.1 ("the last 0.4 s"), never as "0:00".
    public func note(recordingID id: String) -> String {
        let length = seconds < 1 ? "\(max(1, (seconds * 10).rounded(.down)) / 10) s" : ElapsedTimeFormat.clock(seconds)
        return "the last \(length) of audio (from \(ElapsedTimeFormat.clock(fromSeconds))) has no transcript: "
            + "the recording stopped before it was transcribed; run 'livetranscriber retranscribe \(id)' to transcribe it all"
    }
}
