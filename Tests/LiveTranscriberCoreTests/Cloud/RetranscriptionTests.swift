import Foundation
import LiveTranscriberCore
import Testing

@Suite("Re-transcription: what the front ends say and what is saved")
struct RetranscriptionTests {
    @Test("progress reads 'the audio' for one upload and 'part N of M' for pieces", arguments: [
        (CloudRetranscriptionProgress.uploading(part: 1, of: 1), "Uploading the audio…"),
        (.uploading(part: 1, of: 3), "Uploading part 1 of 3…"),
        (.uploading(part: 3, of: 3), "Uploading part 3 of 3…"),
    ])
    func progress(progress: CloudRetranscriptionProgress, text: String) {
        #expect(progress.description == text)
    }

    @Test("the upload notice names the recording, the server and the model")
    func notice() {
        #expect(Retranscription.uploadNotice(recordingName: "Standup", host: "api.openai.com", model: .whisper1)
                == "Uploading the audio of 'Standup' to api.openai.com for whisper-1…")
        #expect(Retranscription.uploadNotice(recordingName: "Standup", host: nil, model: .gpt4oTranscribe)
                == "Uploading the audio of 'Standup' to the server for gpt-4o-transcribe…")
    }

    @Test("an empty answer never replaces a transcript; any segment does")
    func emptyIsRefused() throws {
        #expect(throws: RetranscriptionError.noText(recordingName: "Standup")) {
            try Retranscription.transcriptToSave([], recordingName: "Standup")
        }
        #expect(RetranscriptionError.noText(recordingName: "Standup").description
                == "the transcription returned no text; the transcript of 'Standup' was not changed.")
        #expect(RetranscriptionError.noPreviousTranscript(recordingName: "Standup").description
                == "'Standup' has no previous transcript to restore.")
        let one = [TranscriptSegment(text: "hi", startSeconds: 0, endSeconds: 1)]
        #expect(try Retranscription.transcriptToSave(one, recordingName: "Standup") == one)
    }
}
