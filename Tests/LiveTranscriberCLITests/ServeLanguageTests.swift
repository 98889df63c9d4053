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
