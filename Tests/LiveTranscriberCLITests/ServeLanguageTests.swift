import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberCLI
@testable import LiveTranscriberServe
import LiveTranscriberLinux
import LiveTranscriberTestSupport
import Testing

/// The page's recordings and uploads take the language as `record` and `import` do: detected
/// unless one is named (`LanguageChoice.default`), with the server's default engine, whisper.
/// Trial 6: German speech recorded from the Live page was decoded as English words ("Good and
/// Tag, my name and Heron") and saved as en-US, where `record` gave German text saved as de.
@Suite("Serve: the language of recordings made from the page", .serialized)
struct ServeLanguageTests {
    let library: ServedLibrary
    let server: RunningServer
    let german: String

    init() throws {
        library = try ServedLibrary()
        german = try LanguageAndVocabularyTests.espeak(LanguageAndVocabularyTests.germanSentence, voice: "de", name: "german.wav")
        server = try RunningServer(library, recordInput: german, defaultEngine: true)
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func words(_ id: String) throws -> [String] {
        let shown = try server.get("/api/recordings/\(id)").json()
        let rows = try #require((shown["transcript"] as? [String: Any])?["rows"] as? [[String: Any]])
        return WordErrorRate.normalizedWords(rows.compactMap { ($0["words"] as? [String])?.joined(separator: " ") }.joined(separator: " "))
    }

    @Test("an upload with no language: German text, saved as de, as 'import' does")
    func upload() throws {
        let reply = try server.request("POST", "/api/import?name=german.wav", body: try Data(contentsOf: URL(fileURLWithPath: german)))
        #expect(reply.status == 200, "\(reply.text)")
        let recording = try #require(try reply.json()["recording"] as? [String: Any])
        #expect(recording["language"] as? String == "de")
        #expect(try words(try #require(recording["id"] as? String)) == LanguageAndVocabularyTests.germanWords)
    }

    /// Follows the job on `id` until it is no longer running.
    func finishedJob(_ id: String) throws -> [String: Any] {
        var job = try #require(try server.get("/api/recordings/\(id)/retranscribe").json()["job"] as? [String: Any])
        while job["state"] as? String == "running" {
            Thread.sleep(forTimeInterval: 0.2)
            job = try #require(try server.get("/api/recordings/\(id)/retranscribe").json()["job"] as? [String: Any])
        }
        return job
    }

    func uploaded(_ path: String, as name: String) throws -> String {
        let reply = try server.request("POST", "/api/import?name=\(name)", body: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(reply.status == 200, "\(reply.text)")
        return try #require((try reply.json()["recording"] as? [String: Any])?["id"] as? String)
    }

    @Test("Translate from the page: an English translation kept next to the German transcript, shown with it, exported as NAME.en.srt")
    func translate() throws {
        let id = try uploaded(german, as: "german.wav")
        let started = try server.post("/api/recordings/\(id)/retranscribe", json: #"{"translate": true}"#)
        #expect(started.status == 202, "\(started.text)")
        let job = try finishedJob(id)
        #expect(job["state"] as? String == "done", "\(job)")
        #expect(job["translating"] as? Bool == true)
        #expect(job["language"] as? String == "en")
        let shown = try server.get("/api/recordings/\(id)").json()
        let recording = try #require(shown["recording"] as? [String: Any])
        #expect(recording["language"] as? String == "de")
        #expect(try words(id) == LanguageAndVocabularyTests.germanWords)  // the transcript as it was
        let translation = try #require(shown["translation"] as? [String: Any])
        #expect(translation["language"] as? String == "en")
        let rows = try #require((translation["transcript"] as? [String: Any])?["rows"] as? [[String: Any]])
        let english = Set(WordErrorRate.normalizedWords(rows.compactMap { ($0["words"] as? [String])?.joined(separator: " ") }.joined(separator: " ")))
        // Whisper base's English for it: "Good morning, today I'm going to have a time…"
        #expect(english.isSuperset(of: ["good", "morning", "today"]), "\(english)")
        #expect(english.isDisjoint(with: ["guten", "morgen", "heute", "wetter"]))
        let export = try server.get("/api/recordings/\(id)/export/srt?transcript=translated")
        #expect(export.status == 200)
        #expect(export.text.contains("Good morning"), "\(export.text)")
        #expect(export.headers["content-disposition"] == "attachment; filename=\"german.en.srt\"; filename*=UTF-8''german%2Een%2Esrt")
        #expect(export.text == library.library.run("export", id, "--format", "srt", "--transcript", "translated").stdout)
    }

    @Test("a 1.6 s German clip under auto takes the library's recent language: transcribed again from the page, and through /v1/audio/transcriptions (B80: Malay, \"Thank you soon\")")
    func shortClip() throws {
        // A library whose recent recordings are German: the three English ones go to the trash first.
        for recording in [library.long, library.short, library.tagged] {
            #expect(try server.request("DELETE", "/api/recordings/\(recording.id)").status == 200)
        }
        _ = try uploaded(german, as: "german.wav")
        let clip = try LanguageAndVocabularyTests.espeak("Danke schön, bis morgen.", voice: "de", name: "clip.wav")
        let id = try uploaded(clip, as: "clip.wav")
        let started = try server.post("/api/recordings/\(id)/retranscribe", json: #"{"language": "auto"}"#)
        #expect(started.status == 202, "\(started.text)")
        let job = try finishedJob(id)
        #expect(job["state"] as? String == "done", "\(job)")
        #expect(job["language"] as? String == "de")
        let saved = try words(id)
        #expect(Set(saved).isSuperset(of: ["danke", "morgen"]), "\(saved)")

        var form = MultipartFormData(boundary: "lt-test")
        form.addFile("file", fileName: "clip.wav", contentType: "audio/wav", data: try Data(contentsOf: URL(fileURLWithPath: clip)))
        form.addField("response_format", "verbose_json")
        let reply = try server.transcriptions(form)
        #expect(reply.status == 200, "\(reply.text)")
        let answer = try reply.json()
        #expect(answer["language"] as? String == "de")
        #expect(Set(WordErrorRate.normalizedWords(answer["text"] as? String ?? "")).isSuperset(of: ["danke", "morgen"]), "\(reply.text)")
    }

    @Test("Record with no language: the Live card shows de with the first line, and the recording is German text saved as de, then refined")
    func record() throws {
        let events = try EventStreamClient(port: server.port, path: "/api/live/events",
                                           headers: ["Host": "127.0.0.1:\(server.port)", "Cookie": "\(WebAccess.cookieName)=\(server.token)"])
        _ = try events.next()
        let started = try server.post("/api/live/record", json: "{}")
        #expect(started.status == 200, "\(started.text)")
        var languages: [String] = []
        var saved: String?
        var cardSaved = false
        // The file plays in real time and ends by itself: the recorder is idle again with the saved
        // id. The card follows from live/ a scan later (on a busy machine every line may come in
        // that last moment): read on until it is saved too.
        while saved == nil || !cardSaved, let data = try events.next() {
            let answer = try object(data)
            for item in (answer["recordings"] as? [[String: Any]]) ?? [] {
                guard let card = item["card"] as? [String: Any] else { continue }
                if card["saved"] as? Bool == true { cardSaved = true }
                guard let finals = card["finals"] as? [[String: Any]], !finals.isEmpty,
                      let language = card["language"] as? String else { continue }
                languages.append(language)
            }
            let recorder = try #require(answer["recorder"] as? [String: Any])
            if recorder["state"] as? String == "idle" { saved = recorder["saved"] as? String }
        }
        #expect(!languages.isEmpty && Set(languages) == ["de"], "\(languages)")
        let id = try #require(saved)
        let recording = try #require(try server.get("/api/recordings/\(id)").json()["recording"] as? [String: Any])
        #expect(recording["language"] as? String == "de")
        // Saved, then refined as `record` refines (a transcribe-again job the page follows): the file path's reading.
        var job = try #require(try server.get("/api/recordings/\(id)/retranscribe").json()["job"] as? [String: Any])
        #expect(job["refining"] as? Bool == true)
        while job["state"] as? String == "running" {
            Thread.sleep(forTimeInterval: 0.2)
            job = try #require(try server.get("/api/recordings/\(id)/retranscribe").json()["job"] as? [String: Any])
        }
        #expect(job["state"] as? String == "done", "\(job)")
        #expect(try words(id) == LanguageAndVocabularyTests.germanWords)
    }
}
