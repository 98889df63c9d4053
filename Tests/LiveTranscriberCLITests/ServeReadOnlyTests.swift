import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberCLI
import LiveTranscriberLinux
import Testing

/// `serve` on a library that cannot be changed (docs/serve.md: 409), over the real server.
@Suite("Serve: a library that cannot be changed", .serialized)
struct ServeReadOnlyTests {
    @Test("on read-only media every change is 409 at once with one line, before any work starts; reads and the transcription API still work",
          .enabled(if: SmallDisk.canMount, "needs root to mount a tmpfs"))
    func readOnlyMedia() throws {
        let disk = try SmallDisk(megabytes: 8)
        try withExtendedLifetime(disk) {
            let library = try ServedLibrary(in: disk.url.appendingPathComponent("library"))
            disk.remountReadOnly()  // before anything holds a file open for writing, which would make the remount fail
            let server = try RunningServer(library)
            let id = library.long.id
            #expect(try server.get("/api/recordings").status == 200)

            let refusal = #"{"error":"the library at \#(library.library.url.path) is read-only (read-only media): "#
                + #"list, show, search and export work, but nothing can be changed or recorded"}"# + "\n"
            let file = try Data(contentsOf: URL(fileURLWithPath: ServedLibrary.librivox + "/sense_and_sensibility_01_austen_64kb-0880.wav"))
            let changes: [(method: String, path: String, body: Data)] = [
                ("POST", "/api/recordings/\(id)/retranscribe", Data()),
                ("POST", "/api/recordings/\(id)/retranscribe", Data(#"{"language":"en-GB"}"#.utf8)),
                ("POST", "/api/recordings/\(id)/summarize", Data()),
                ("POST", "/api/recordings/\(id)/name", Data(#"{"name":"Other"}"#.utf8)),
                ("POST", "/api/recordings/\(id)/tags", Data(#"{"add":["more"]}"#.utf8)),
                ("DELETE", "/api/recordings/\(id)", Data()),
                ("POST", "/api/import?name=chapter.wav", file),
                ("POST", "/api/live/record", Data("{}".utf8)),
            ]
            for change in changes {
                let reply = try server.request(change.method, change.path, body: change.body)
                #expect(reply.status == 409, "\(change.method) \(change.path): \(reply.text)")
                #expect(reply.text == refusal, "\(change.method) \(change.path)")
            }
            // Nothing was started: no job to read, the page's recorder idle, no upload kept.
            let job = try server.get("/api/recordings/\(id)/retranscribe")
            #expect(job.status == 404)
            #expect(job.text == #"{"error":"this recording has not been transcribed again since the server started"}"# + "\n")
            let recorder = try #require(try server.get("/api/live").json()["recorder"] as? [String: Any])
            #expect(recorder["state"] as? String == "idle")
            #expect(recorder["error"] == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: server.uploads.path).isEmpty)

            // Reading, and the transcription API (which saves nothing), work as before.
            let shown = try server.get("/api/recordings/\(id)")
            #expect(shown.status == 200)
            #expect((try shown.json()["recording"] as? [String: Any])?["name"] as? String == "Sense and Sensibility")
            var form = MultipartFormData(boundary: "lt-test")
            form.addFile("file", fileName: "clip.wav", contentType: "audio/wav", data: file)
            let transcribed = try server.request("POST", "/v1/audio/transcriptions", headers: ["Content-Type": form.contentType],
                                                 body: form.finished())
            #expect(transcribed.status == 200, "\(transcribed.text)")
            #expect(transcribed.text == #"{"text":"he was not an illness those young man"}"#)
        }
    }
}
