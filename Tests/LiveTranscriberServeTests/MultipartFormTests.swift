import Foundation
import LiveTranscriberCore
import LiveTranscriberServe
import Testing

@Suite("Multipart forms and transcription answers")
struct MultipartFormTests {
    @Test("the parts the core's form builder writes are read back: fields and a file with its name and type")
    func roundTrip() throws {
        var builder = MultipartFormData(boundary: "XyZ-123")
        builder.addField("language", "en-US")
        builder.addFile("file", fileName: "talk \"1\".wav", contentType: "audio/wav", data: Data([0, 1, 2, 13, 10, 45, 45]))
        builder.addField("response_format", "srt")
        let form = try MultipartForm(body: builder.finished(), contentType: builder.contentType)
        #expect(form.parts.map(\.name) == ["language", "file", "response_format"])
        #expect(form.field("language") == "en-US")
        #expect(form.field("response_format") == "srt")
        let file = try #require(form.part("file"))
        #expect(file.fileName == "talk \"1\".wav")
        #expect(file.contentType == "audio/wav")
        #expect(file.data == Data([0, 1, 2, 13, 10, 45, 45]))
    }

    @Test("a body that is not a form, names no boundary, or never closes is refused", arguments: [
        ("application/json", "{}"), ("multipart/form-data", "--x\r\n"), ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue"),
        ("multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--x--"), ("multipart/form-data; boundary=x", "nothing"),
    ])
    func malformed(contentType: String, body: String) {
        #expect(throws: MultipartForm.Malformed.self) { try MultipartForm(body: Data(body.utf8), contentType: contentType) }
    }

    let segments = [
        TranscriptSegment(text: "hello there", startSeconds: 0.5, endSeconds: 1.25, words: [
            WordTiming(word: "hello", startSeconds: 0.5, endSeconds: 0.9), WordTiming(word: "there", startSeconds: 0.9, endSeconds: 1.25)]),
        TranscriptSegment(text: " general ", startSeconds: 2, endSeconds: 3),
    ]

    @Test("each response_format in OpenAI's shape")
    func formats() {
        #expect(TranscriptionResponseFormat.json.render(segments, language: "en-US", durationSeconds: 3.5).body == #"{"text":"hello there general"}"#)
        #expect(TranscriptionResponseFormat.text.render(segments, language: "en-US", durationSeconds: 3.5) == ("hello there general\n", "text/plain; charset=utf-8"))
        #expect(TranscriptionResponseFormat.srt.render(segments, language: "en-US", durationSeconds: 3.5).body
            == "1\n00:00:00,500 --> 00:00:01,500\nhello there\n\n2\n00:00:02,000 --> 00:00:03,000\ngeneral\n")
        #expect(TranscriptionResponseFormat.vtt.render(segments, language: "en-US", durationSeconds: 3.5).body.hasPrefix("WEBVTT\n\n1\n00:00:00.500 --> 00:00:01.500\nhello there\n"))
        #expect(TranscriptionResponseFormat.verboseJSON.render(segments, language: "en-US", durationSeconds: 3.5).body == """
            {"duration":3.5,"language":"en-US","segments":[\
            {"avg_logprob":0,"compression_ratio":0,"end":1.25,"id":0,"no_speech_prob":0,"seek":0,"start":0.5,"temperature":0,"text":"hello there","tokens":[]},\
            {"avg_logprob":0,"compression_ratio":0,"end":3,"id":1,"no_speech_prob":0,"seek":0,"start":2,"temperature":0,"text":"general","tokens":[]}],\
            "task":"transcribe","text":"hello there general","words":[{"end":0.9,"start":0.5,"word":"hello"},{"end":1.25,"start":0.9,"word":"there"}]}
            """)
        #expect(TranscriptionResponseFormat(rawValue: "verbose_json") == .verboseJSON)
    }

    @Test("the API's subtitles end a recording's last short cue with its audio: 0.62 s gives 0.48 to 0.62, not to 1.48")
    func lastCueEndsWithTheAudio() {
        let segments = [TranscriptSegment(text: "Mr. President.", startSeconds: 0.48, endSeconds: 0.5)]
        #expect(TranscriptionResponseFormat.srt.render(segments, language: "en", durationSeconds: 0.62).body
            == "1\n00:00:00,480 --> 00:00:00,620\nMr. President.\n")
    }
}
