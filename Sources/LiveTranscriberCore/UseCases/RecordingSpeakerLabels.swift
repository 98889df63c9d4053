import Foundation

/// Labelling the speakers of a saved recording from its audio, keeping its words: `import`'s last
/// step (its transcript is made from the file, not by re-transcription) and the web page's
/// upload. A re-transcription labels speakers itself (`RecordingRetranscription.run(speakers:)`).
///
/// Saved as a new transcript over the one read (`ExpectedTranscript`): the unlabelled one becomes
/// the previous transcript, and nothing is saved when another command replaced it meanwhile.
public enum RecordingSpeakerLabels {
    /// Labels `saved` (a recording with its transcript, as just saved) and saves the labels.
    /// - Returns: the recording with its labelled transcript, or `saved` unchanged when the
    ///   transcript is empty, the models cannot be used (`result` says why) or the transcript
    ///   changed meanwhile (`result` nil).
    /// - Throws: what reading the audio or the diarizer throws (`TranscriptionCancelled`, a
    ///   missing audio file: `MissingAudioFile`); what the store throws while saving, other than
    ///   `LibraryError.changedMeanwhile`.
    public static func label(_ saved: RecordingWithTranscript, in store: some RecordingStore, with labelling: SpeakerLabelling) throws
        -> (saved: RecordingWithTranscript, result: SpeakerLabelling.Result?) {
        guard !saved.segments.isEmpty else { return (saved, .labelled(speakers: 0)) }
        let audio = try store.existingAudioFile(of: saved.recording)
        let (labelled, result) = try labelling.label(saved.segments, audio: audio, previous: (saved.segments, saved.recording.speakers))
        guard case .labelled = result else { return (saved, result) }
        do {
            try store.replaceTranscript(of: saved.recording.id, with: labelled.segments, language: nil, vocabulary: nil,
                                        speakers: labelled.speakers, expected: .segments(saved.segments))
        } catch LibraryError.changedMeanwhile {
            return (saved, nil)
        }
        return (RecordingWithTranscript(recording: try store.resolve(saved.recording.id), segments: try store.transcript(of: saved.recording.id)),
                result)
    }

    /// Gives speaker `id` of `recording` the name `name` (trimmed; blank removes the name, so
    /// "Speaker 1" shows again).
    /// - Throws: `LibraryError.invalid` when the recording has no speaker `id` ("it has S1 and
    ///   S2") or the name breaks the name rules (`RecordingName.problem`); what `modify` throws.
    @discardableResult
    public static func rename(_ id: String, of recording: Recording, to name: String, in store: some RecordingStore) throws -> Recording {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty, let problem = RecordingName.problem(in: trimmed) {
            throw LibraryError.invalid(problem.message(subject: "a speaker's name"))
        }
        var found = true
        let changed = try store.modify(recording.id) { stored in
            guard let index = stored.speakers.firstIndex(where: { $0.id == id }) else { found = false; return }
            stored.speakers[index].name = trimmed.isEmpty ? nil : trimmed
        }
        guard found else { throw LibraryError.invalid(unknownSpeaker(id, in: changed)) }
        return changed
    }

    /// "'Interview' (ID) has no speaker S9; its speakers are S1 and S2." (or "…has no speaker labels; …").
    static func unknownSpeaker(_ id: String, in recording: Recording) -> String {
        let name = "'\(VisibleText.escaped(recording.name))' (\(recording.id))"
        guard !recording.speakers.isEmpty else {
            return "\(name) has no speaker labels; make them with 'livetranscriber retranscribe \(recording.id)'"
        }
        let ids = recording.speakers.map(\.id)
        let list = ids.count == 1 ? ids[0] : ids.dropLast().joined(separator: ", ") + " and " + ids.last!
        return "\(name) has no speaker \(VisibleText.escaped(id)); its speakers are \(list)"
    }
}
