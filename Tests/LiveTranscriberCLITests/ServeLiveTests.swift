import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberCLI
@testable import LiveTranscriberServe
import LiveTranscriberLinux
import LiveTranscriberStore
import LiveTranscriberTestSupport
import Testing

/// The Live page's API (docs/serve.md, "Live"): the recordings in progress read from the library's
/// `live/` folders, the server-sent events, and recording from the page, against the real server
/// on a loopback port over a real library.
@Suite("Serve: the Live page", .serialized)
struct ServeLiveTests {
    let library: ServedLibrary
    let server: RunningServer

    init() throws {
        library = try ServedLibrary()
        // The page records the long recording's audio (24.7 s of speech) in real time.
        server = try RunningServer(library, recordInput: library.audioFile(library.long).path)
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func cards(_ answer: [String: Any]) -> [[String: Any]] {
        ((answer["recordings"] as? [[String: Any]]) ?? []).compactMap { $0["card"] as? [String: Any] }
    }

    @Test("a live folder is followed while its draft's lock is held: its lines become the card; a folder a crash left is never shown")
    func followsLiveFolders() throws {
        let root = library.library.url
        let recordings = LiveRecordings(dataDirectory: root)
        let id = "20261202-060000-abcd"
        let live = LiveFolder.folder(of: id, in: root)
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        let draft = root.appendingPathComponent("drafts/\(id)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        // A crash left these: no process holds the lock.
        try FileManager.default.createDirectory(at: LiveFolder.folder(of: "20261201-000000-dead", in: root), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("drafts/.hidden"))
        let lock = try #require(try FileLock.acquire(draft.appendingPathComponent("lock")))
        let writer = LiveFolder(dataDirectory: root)
        writer.event(#"{"audio_end":0,"audio_start":0,"elapsed":0.4,"phase":"recording","type":"phase"}"#)
        writer.activity(#"{"action":"start","activityID":"activity-1","attributes":{"name":"Standup","recordingID":"\#(id)","startDate":"2026-12-02T06:00:00Z"},"contentState":{"elapsedSeconds":null,"language":"en-US","segmentCount":0,"status":"recording","timerReferenceDate":"2026-12-02T06:00:00Z","transcript":""},"timestamp":"2026-12-02T06:00:00Z"}"#)
        writer.open(id: id)
        writer.event(#"{"audio_end":3.2,"audio_start":0.5,"elapsed":3.6,"text":"the first line","type":"final","words":[]}"#)
        let now = Date(timeIntervalSince1970: 1_796_191_230)  // 2026-12-02 06:00:30 UTC
        recordings.scan(now: now)
        let views = recordings.snapshot().views
        #expect(views.map(\.id) == [id])
        let card = try #require(views.first).card(now: now)
        #expect(card.name == "Standup" && card.status == "Recording" && card.timer.text == "0:30" && card.timer.ticking)
        #expect(card.finals == [LiveRecordingView.FinalLine(start: 0.5, time: "0:00", text: "the first line")])

        let version = recordings.snapshot().version
        recordings.scan(now: now)
        #expect(recordings.snapshot().version == version)  // nothing new, no change
        writer.event(#"{"audio_end":4,"audio_start":3.2,"elapsed":4.1,"text":"and","type":"interim"}"#)
        recordings.scan(now: now)
        #expect(recordings.snapshot().version == version + 1)
        #expect(recordings.snapshot().views.first?.interim == "and")

        // The recorder writes its last line (a final decoded after the audio ended), releases its
        // lock and removes its folder, all between two scans, and never says saved (it died): the
        // line is still read (the files stay open), and once the grace has passed with no word
        // the card is finished, its clock stopped where the lock was found released, and it stays
        // for a while.
        writer.event(#"{"audio_end":4.4,"audio_start":3.3,"elapsed":5,"text":"the last line","type":"final","words":[]}"#)
        lock.release()
        writer.remove()
        #expect(!FileManager.default.fileExists(atPath: live.path))
        recordings.scan(now: now.addingTimeInterval(5))
        #expect(recordings.snapshot().views.first?.card(now: now.addingTimeInterval(5)).finished == false)
        recordings.scan(now: now.addingTimeInterval(5 + LiveRecordings.endGraceSeconds))
        let ended = try #require(recordings.snapshot().views.first).card(now: now.addingTimeInterval(9))
        #expect(ended.finished && ended.timer == LiveRecordingView.Timer(ticking: false, from: nil, text: "0:35"))
        #expect(ended.finals.map(\.text) == ["the last line", "the first line"])
        #expect(!ended.saved)
        recordings.scan(now: now.addingTimeInterval(5 + LiveRecordings.endGraceSeconds + LiveRecordings.finishedSeconds + 1))
        #expect(recordings.snapshot().views.isEmpty)
    }

    @Test("a scan between the store releasing the draft's lock and the recorder's 'saved' line still ends the card saved")
    func savedLineAfterLockRelease() throws {
        let root = library.library.url
        let recordings = LiveRecordings(dataDirectory: root)
        let id = "20261202-064500-f00d"
        let draft = root.appendingPathComponent("drafts/\(id)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        let lock = try #require(try FileLock.acquire(draft.appendingPathComponent("lock")))
        let writer = LiveFolder(dataDirectory: root)
        writer.open(id: id)
        writer.event(#"{"audio_end":2,"audio_start":0.5,"elapsed":2.4,"text":"one line","type":"final","words":[]}"#)
        let now = Date(timeIntervalSince1970: 1_796_193_900)
        recordings.scan(now: now)
        lock.release()  // the store saved the draft
        recordings.scan(now: now.addingTimeInterval(0.05))
        writer.event(#"{"audio_end":2.5,"audio_start":2.5,"elapsed":2.9,"phase":"saved","type":"phase"}"#)
        writer.remove()
        recordings.scan(now: now.addingTimeInterval(0.1))
        let card = try #require(recordings.snapshot().views.first).card(now: now.addingTimeInterval(0.1))
        #expect(card.finished && card.saved)
        #expect(card.note == nil)
    }

    @Test("the same lines fed in memory and read from a live folder give the page the same JSON, byte for byte, while recording and once saved")
    func memoryFeedMatchesTheDisk() throws {
        let root = library.library.url
        let id = "20261202-070000-d15c"
        let draft = root.appendingPathComponent("drafts/\(id)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        let lock = try #require(try FileLock.acquire(draft.appendingPathComponent("lock")))
        let fromDisk = LiveRecordings(dataDirectory: root)
        // Never started and never scanned: all it shows is what it is fed.
        let inMemory = LiveRecordings(dataDirectory: root)
        let writer = LiveFolder(dataDirectory: root)
        let feed = inMemory.feed()
        func both(_ give: (any LiveRecordingFeed) -> Void) {
            give(writer)
            give(feed)
        }
        both { $0.event(#"{"audio_end":0,"audio_start":0,"elapsed":0.4,"phase":"recording","type":"phase"}"#) }
        both { $0.activity(#"{"action":"start","activityID":"activity-1","attributes":{"name":"Standup","recordingID":"\#(id)","startDate":"2026-12-02T07:00:00Z"},"contentState":{"elapsedSeconds":null,"language":"en-US","segmentCount":0,"status":"recording","timerReferenceDate":"2026-12-02T07:00:00Z","transcript":""},"timestamp":"2026-12-02T07:00:00Z"}"#) }
        both { $0.open(id: id) }
        both { $0.event(#"{"audio_end":3.2,"audio_start":0.5,"elapsed":3.6,"text":"the first line","type":"final","words":[]}"#) }
        both { $0.event(#"{"audio_end":4,"audio_start":3.2,"elapsed":4.1,"text":"and","type":"interim"}"#) }
        let now = Date(timeIntervalSince1970: 1_796_194_830)  // 2026-12-02 07:00:30 UTC
        fromDisk.scan(now: now)
        func answer(_ recordings: LiveRecordings) throws -> String {
            guard case .data(let json) = WebResponse.json(LiveWebAPI(recordings: recordings, recorder: nil).answer(now: now)).body else {
                throw HTTPReply.Failure(description: "no JSON body")
            }
            return String(decoding: json, as: UTF8.self)
        }
        let recording = try answer(inMemory)
        #expect(recording == (try answer(fromDisk)))
        let card = try #require(inMemory.snapshot().views.first).card(now: now)
        #expect(card.name == "Standup" && card.status == "Recording" && card.timer.text == "0:30" && card.interim == "and")
        #expect(card.finals == [LiveRecordingView.FinalLine(start: 0.5, time: "0:00", text: "the first line")])

        both { $0.event(#"{"audio_end":4.4,"audio_start":3.3,"elapsed":5,"text":"the last line","type":"final","words":[]}"#) }
        both { $0.activity(#"{"action":"end","activityID":"activity-1","contentState":{"elapsedSeconds":5,"language":"en-US","segmentCount":2,"status":"stopped","timerReferenceDate":"2026-12-02T07:00:00Z","transcript":"the last line"},"dismissalPolicy":"default","timestamp":"2026-12-02T07:00:05Z"}"#) }
        both { $0.event(#"{"audio_end":5,"audio_start":5,"elapsed":5.2,"phase":"saved","type":"phase"}"#) }
        lock.release()
        both { $0.end() }
        fromDisk.scan(now: now)
        let saved = try answer(inMemory)
        #expect(saved == (try answer(fromDisk)))
        let ended = try #require(inMemory.snapshot().views.first).card(now: now)
        #expect(ended.finished && ended.saved && ended.note == nil)
        #expect(ended.timer == LiveRecordingView.Timer(ticking: false, from: nil, text: "0:05"))
        #expect(ended.finals.map(\.text) == ["the last line", "the first line"])
        // A finished recording stays for `finishedSeconds`, then leaves the list, fed or read.
        inMemory.scan(now: Date().addingTimeInterval(LiveRecordings.finishedSeconds + 1))
        #expect(inMemory.snapshot().views.isEmpty)
    }

    @Test("a recording fed in memory whose recorder ends without saying saved is shown interrupted at once, and its live folder is never read")
    func memoryFeedEndedWithoutSaving() throws {
        let root = library.library.url
        let id = "20261202-071500-0dd5"
        let draft = root.appendingPathComponent("drafts/\(id)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        let lock = try #require(try FileLock.acquire(draft.appendingPathComponent("lock")))
        defer { lock.release() }
        let recordings = LiveRecordings(dataDirectory: root)
        let feed = recordings.feed()
        feed.open(id: id)
        feed.event(#"{"audio_end":2,"audio_start":0.5,"elapsed":2.4,"text":"fed","type":"final","words":[]}"#)
        // Its folder on disk (for other programs) says something else; it is not read here.
        let writer = LiveFolder(dataDirectory: root)
        writer.open(id: id)
        writer.event(#"{"audio_end":2,"audio_start":0.5,"elapsed":2.4,"text":"written","type":"final","words":[]}"#)
        defer { writer.remove() }
        recordings.scan(now: Date())
        #expect(recordings.snapshot().views.map { $0.finals.map(\.text) } == [["fed"]])
        feed.end()
        feed.event(#"{"audio_end":3,"audio_start":2.5,"elapsed":3.4,"text":"after the end","type":"final","words":[]}"#)
        let card = try #require(recordings.snapshot().views.first).card(now: Date())
        #expect(card.finished && !card.saved)
        #expect(card.status == LiveRecordingView.interruptedStatus && card.note == LiveRecordingView.interruptedNote)
        #expect(card.finals.map(\.text) == ["fed"])
    }

    @Test("with nobody watching the folders are not scanned; the first snapshot scans before it answers, so it is never stale")
    func idleUntilWatched() throws {
        let root = library.library.url
        let recordings = LiveRecordings(dataDirectory: root)
        recordings.start()
        defer { recordings.stop() }
        let id = "20261202-063000-cafe"
        let draft = root.appendingPathComponent("drafts/\(id)")
        try FileManager.default.createDirectory(at: draft, withIntermediateDirectories: true)
        let lock = try #require(try FileLock.acquire(draft.appendingPathComponent("lock")))
        defer { lock.release() }
        let writer = LiveFolder(dataDirectory: root)
        writer.open(id: id)
        writer.event(#"{"audio_end":2,"audio_start":0.5,"elapsed":2.4,"text":"seen at once","type":"final","words":[]}"#)
        defer { writer.remove() }
        // The scanner has not looked (nobody watched): this snapshot scans, then answers.
        let views = recordings.snapshot().views
        #expect(views.map(\.id) == [id])
        #expect(views.first?.finals.map(\.text) == ["seen at once"])
    }

    @Test("recovering a draft a crash left removes its live folder too")
    func recoveryRemovesLiveFolder() throws {
        let id = "20261202-061500-beef"
        do {  // a recorder that dies: its draft is left, its lock released
            let store = try LibraryStore(directory: library.library.url, timeZone: ServedLibrary.utc, audioMeasure: SndFileAudioMeasure())
            let draft = try store.createDraft(id: id, createdAt: ServedLibrary.t0, language: "en-US",
                                              audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
            try WAVFixture.make(audio: Data(count: 32_000)).write(to: draft.audioFile)
        }
        let live = LiveFolder.folder(of: id, in: library.library.url)
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: live.appendingPathComponent("events.jsonl"))
        let recovered = library.library.run("recover")
        #expect(recovered.exitCode == 0, "\(recovered.stderr)")
        #expect(FileManager.default.fileExists(atPath: library.library.url.appendingPathComponent("recordings/\(id)").path))
        #expect(!FileManager.default.fileExists(atPath: live.path))
    }

    @Test("a microphone that cannot be opened: the recorder is idle again and says why, naming serve's way out; nothing is saved")
    func noMicrophone() throws {
        let recordings = LiveRecordings(dataDirectory: library.library.url)
        let recorder = WebRecorder(context: library.context, input: .microphone(device: "lt-no-such-device", sampleRate: 48_000, channels: 1),
                                   recordings: recordings)
        #expect(recorder.status.input == "the microphone (lt-no-such-device)")
        try recorder.start(Data())
        recorder.stopForShutdown()  // returns once the recording thread has ended
        let status = recorder.status
        #expect(status.state == "idle" && status.saved == nil)
        #expect(status.error?.hasPrefix("cannot capture from audio device 'lt-no-such-device': ") == true, "\(status)")
        #expect(status.error?.hasSuffix(". Start serve with --record-input FILE to record a file instead") == true, "\(status)")
        #expect(library.library.recordingFolders.count == 3)
    }

    @Test("GET /api/live: nothing recorded yet, the page's recorder idle with its input; other methods 405; without the token 401")
    func idle() throws {
        let reply = try server.get("/api/live")
        #expect(reply.status == 200)
        #expect(reply.text == #"{"recorder":{"input":"audio.wav","state":"idle"},"recordings":[]}"# + "\n")
        #expect(try server.request("DELETE", "/api/live").status == 405)
        #expect(try server.request("GET", "/api/live/record").status == 405)
        #expect(try HTTPReply.send(port: server.port, method: "GET", path: "/api/live/events", headers: ["Host": "127.0.0.1:\(server.port)"]).status == 401)
        let stop = try server.post("/api/live/record/stop", json: "")
        #expect(stop.status == 409 && stop.text == #"{"error":"no recording from this page is under way"}"# + "\n")
        #expect(try server.post("/api/live/record", json: #"{"language":"en US"}"#).status == 400)
        // A language the engine cannot take is refused before anything starts (pocketsphinx here).
        let german = try server.post("/api/live/record", json: #"{"language":"de"}"#)
        #expect(german.status == 400 && german.text == #"{"error":"pocketsphinx knows only US English (en-US), not 'de'"}"# + "\n", "\(german.text)")
        #expect(try server.post("/api/live/record", json: "[1]").status == 400)
        // A name with a control character (NUL too) is refused as 'rename' and 'record --name' refuse it, not made a space.
        for (bad, code) in [(#"a\u0000b"#, "U+0000"), (#"a\u0001b"#, "U+0001")] {
            let named = try server.post("/api/live/record", json: #"{"name":"\#(bad)"}"#)
            #expect(named.status == 400)
            #expect(named.text == #"{"error":"a recording's name cannot contain control or invisible formatting characters (found \#(code))."}"# + "\n")
        }
        #expect(try server.get("/api/live").text.contains(#""state":"idle""#))  // the bad requests started nothing
    }

    @Test("record from the page: the same recorder as 'record' on the file input in real time; its finals arrive as server-sent events; stop saves it")
    func recordFromThePage() throws {
        let events = try EventStreamClient(port: server.port, path: "/api/live/events",
                                           headers: ["Host": "127.0.0.1:\(server.port)", "Cookie": "\(WebAccess.cookieName)=\(server.token)"])
        let first = try object(try #require(try events.next()))
        #expect(events.status == 200)
        #expect(cards(first).isEmpty)

        let started = try server.post("/api/live/record", json: #"{"name":"From the page","tags":["live"]}"#)
        #expect(started.status == 200, "\(started.text)")
        #expect(try server.post("/api/live/record", json: "{}").status == 409)  // one at a time
        var final: [String: Any]?
        while final == nil, let data = try events.next() {
            let card = cards(try object(data)).first { $0["name"] as? String == "From the page" }
            if let card, let finals = card["finals"] as? [[String: Any]], !finals.isEmpty {
                #expect(card["status"] as? String == "Recording" && card["dot"] as? String == "red")
                #expect((card["timer"] as? [String: Any])?["ticking"] as? Bool == true)
                #expect(card["language"] as? String == "en-US")
                final = finals[0]
            }
        }
        let line = try #require(final)
        let stopped = try server.post("/api/live/record/stop", json: "")
        #expect(stopped.status == 200)
        var saved: String?
        while saved == nil, let data = try events.next() {
            let recorder = try #require(try object(data)["recorder"] as? [String: Any])
            if recorder["state"] as? String == "idle" { saved = recorder["saved"] as? String }
        }
        let id = try #require(saved)
        let shown = try server.get("/api/recordings/\(id)").json()
        let recording = try #require(shown["recording"] as? [String: Any])
        #expect(recording["name"] as? String == "From the page" && recording["tags"] as? [String] == ["live"])
        let rows = try #require((shown["transcript"] as? [String: Any])?["rows"] as? [[String: Any]])
        #expect((rows.first?["words"] as? [String])?.joined(separator: " ") == line["text"] as? String)
        #expect(!FileManager.default.fileExists(atPath: LiveFolder.folder(of: id, in: library.library.url).path))
    }
}

/// Recording from the page reaches the Live view in memory.
@Suite("Serve: the page's recording in memory", .serialized)
struct ServeLiveMemoryTests {
    @Test("with no live folder possible (a file where live/ would be), a recording started through the API shows its finals in GET /api/live, as saved")
    func pageRecordingNeedsNoLiveFolder() throws {
        let library = try ServedLibrary()
        // LiveFolder cannot make live/<id>/ (the recording goes on without it), and a scan finds nothing.
        let blocker = library.library.url.appendingPathComponent(LibraryLayout.live)
        try Data("not a folder\n".utf8).write(to: blocker)
        // The page records one librivox sentence (2.99 s) in real time, to its end.
        let server = try RunningServer(library)
        let events = try EventStreamClient(port: server.port, path: "/api/live/events",
                                           headers: ["Host": "127.0.0.1:\(server.port)", "Cookie": "\(WebAccess.cookieName)=\(server.token)"])
        _ = try #require(try events.next())
        let started = try server.post("/api/live/record", json: #"{"name":"In memory"}"#)
        #expect(started.status == 200, "\(started.text)")
        var saved: String?
        while saved == nil, let data = try events.next() {
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
            let recorder = try #require(answer["recorder"] as? [String: Any])
            if recorder["state"] as? String == "idle" { saved = recorder["saved"] as? String }
        }
        let id = try #require(saved)
        let live = try server.get("/api/live").json()
        let items = try #require(live["recordings"] as? [[String: Any]])
        #expect(items.count == 1)
        let card = try #require(items.first?["card"] as? [String: Any])
        #expect(card["id"] as? String == id && card["name"] as? String == "In memory")
        #expect(card["finished"] as? Bool == true && card["saved"] as? Bool == true && card["note"] == nil)
        let finals = try #require(card["finals"] as? [[String: Any]])
        // The card's finals, oldest first, are the saved transcript's rows: the same starts and words.
        let rows = try #require((try server.get("/api/recordings/\(id)").json()["transcript"] as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(!rows.isEmpty)
        #expect(finals.reversed().map { $0["text"] as? String } == rows.map { ($0["words"] as? [String])?.joined(separator: " ") })
        #expect(finals.reversed().map { $0["start"] as? Double } == rows.map { $0["start"] as? Double })
        #expect(card["segmentCount"] as? Int == rows.count)
        // live/ stayed a file: nothing could be written there or read back from it.
        #expect(try Data(contentsOf: blocker) == Data("not a folder\n".utf8))
    }
}

/// Transcribe again from the Recording page, with its progress.
@Suite("Serve: transcribe again", .serialized)
struct ServeRetranscribeTests {
    @Test("a recording deleted while it is transcribed again: the job fails saying so; the trashed recording keeps its transcript")
    func deletedMeanwhile() throws {
        let library = try ServedLibrary()
        let server = try RunningServer(library)
        let id = library.long.id
        let before = try Data(contentsOf: library.library.url.appendingPathComponent("recordings/\(id)/transcript.json"))
        let path = "/api/recordings/\(id)/retranscribe"
        #expect(try server.post(path, json: "").status == 202)
        // The 0:24 take seconds to decode; the delete is answered at once.
        #expect(try server.request("DELETE", "/api/recordings/\(id)").status == 200)
        var job = try #require(try server.get(path).json()["job"] as? [String: Any])
        let deadline = Date().addingTimeInterval(300)  // a safety net
        while job["state"] as? String == "running", Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            job = try #require(try server.get(path).json()["job"] as? [String: Any])
        }
        #expect(job["state"] as? String == "failed")
        #expect(job["error"] as? String == "'Sense and Sensibility' (\(id)) was deleted while it was being transcribed again; the new transcript was not saved")
        #expect(try Data(contentsOf: library.library.url.appendingPathComponent("trash/\(id)/transcript.json")) == before)
    }

    @Test("transcribe again: as 'retranscribe' with the local engine, progress read until done; the previous transcript kept; bad requests change nothing")
    func retranscribe() throws {
        let library = try ServedLibrary()
        let server = try RunningServer(library)
        let path = "/api/recordings/\(library.long.id)/retranscribe"
        #expect(try server.get(path).status == 404)  // none yet
        #expect(try server.post(path, json: #"{"language":"en US"}"#).status == 400)
        let german = try server.post(path, json: #"{"language":"de"}"#)
        #expect(german.status == 400 && german.text == #"{"error":"pocketsphinx knows only US English (en-US), not 'de'"}"# + "\n", "\(german.text)")
        #expect(try server.get(path).status == 404)  // no job was started
        #expect(try server.post("/api/recordings/.hidden/retranscribe", json: "").status == 400)
        #expect(try server.request("DELETE", path).status == 405)
        let started = try server.post(path, json: "")
        #expect(started.status == 202, "\(started.text)")
        var job = try #require(try started.json()["job"] as? [String: Any])
        #expect(job["state"] as? String == "running" && job["totalSeconds"] as? Double == library.long.durationSeconds)
        var fractions: [Double] = []
        let deadline = Date().addingTimeInterval(300)  // a safety net: pocketsphinx takes seconds
        while job["state"] as? String == "running", Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            job = try #require(try server.get(path).json()["job"] as? [String: Any])
            fractions.append(job["fraction"] as? Double ?? -1)
        }
        #expect(job["state"] as? String == "done", "\(job)")
        #expect(fractions == fractions.sorted() && fractions.last == 1)
        #expect(job["doneSeconds"] as? Double == library.long.durationSeconds)  // done is all of it
        let rows = try #require((try server.get("/api/recordings/\(library.long.id)").json()["transcript"] as? [String: Any])?["rows"] as? [[String: Any]])
        #expect(job["segments"] as? Int == rows.count && rows.count > 0)
        #expect(FileManager.default.fileExists(atPath: library.library.url.appendingPathComponent("recordings/\(library.long.id)/transcript.previous.json").path))
        let restored = library.library.run("retranscribe", library.long.id, "--restore")
        #expect(restored.exitCode == 0, "\(restored.stderr)")
        #expect(library.library.run("show", library.long.id).stdout.contains(library.segments[0].text))
    }
}
