import Foundation

/// The speaker-labelling step of a new transcript: the diarizer run on the recording's audio and
/// `SpeakerAttribution` applied to the segments. One step for every use case that makes a
/// transcript from a saved file (`RecordingRetranscription`: `retranscribe`, `record`'s second
/// pass, `serve`'s job; `RecordingSpeakerLabels`: `import`).
///
/// Labels are extra: when the models are missing or damaged (`SpeakerModelsMissing`), the
/// transcript is saved without them and `Result.skipped` says why.
public struct SpeakerLabelling: Sendable {
    /// The diarizer (sherpa-onnx on Linux).
    public var diarizer: any SpeakerDiarizer
    /// The number of voices when the user knows it (`--speakers N`); nil to find it.
    public var speakerCount: Int?

    public init(diarizer: any SpeakerDiarizer, speakerCount: Int? = nil) {
        self.diarizer = diarizer
        self.speakerCount = speakerCount
    }

    /// What the step came to.
    public enum Result: Sendable, Equatable {
        /// The segments are labelled with this many voices (0 when no voice was found).
        case labelled(speakers: Int)
        /// The models could not be used; the transcript is saved without labels.
        case skipped(SpeakerModelsMissing)

        /// The note a front end prints for a skipped step ("note: speaker labels were not made: …"); nil otherwise.
        public var note: String? {
            if case .skipped(let missing) = self { return "note: \(missing.description)." }
            return nil
        }
    }

    /// `segments` labelled from `audio`'s turns, names carried from `previous` (the transcript
    /// replaced and the recording's speakers); the segments unchanged, with no speakers, when
    /// the models cannot be used.
    /// - Throws: what the diarizer throws other than `SpeakerModelsMissing` (reading the audio,
    ///   `TranscriptionCancelled`).
    public func label(_ segments: [TranscriptSegment], audio: URL,
                      previous: (segments: [TranscriptSegment], speakers: [Speaker]) = ([], [])) throws
        -> (labelled: SpeakerAttribution.Labelled, result: Result) {
        do {
            let turns = try diarizer.turns(in: audio, speakerCount: speakerCount)
            let labelled = SpeakerAttribution.label(segments, turns: turns, previous: previous)
            return (labelled, .labelled(speakers: labelled.speakers.count))
        } catch let missing as SpeakerModelsMissing {
            var unlabelled = segments
            for index in unlabelled.indices { unlabelled[index].speaker = nil }
            return (SpeakerAttribution.Labelled(segments: unlabelled, speakers: []), .skipped(missing))
        }
    }
}
