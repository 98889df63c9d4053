import Foundation
import LiveTranscriberCLI
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTerminal
import Synchronization

/// The Live page's part of the API (docs/serve.md, "Live"): the recordings in progress as JSON
/// and as server-sent events, and recording this machine's microphone from the page.
final class LiveWebAPI: Sendable {
    /// Seconds between two comments on a quiet event stream (so a closed page is noticed).
    static let keepAliveSeconds = 10.0

    let recordings: LiveRecordings
    /// Records from the page; nil where the server cannot record.
    let recorder: WebRecorder?

    init(recordings: LiveRecordings, recorder: WebRecorder?) {
        self.recordings = recordings
        self.recorder = recorder
    }

    /// One recording in progress: the card and the Live Activity's four presentations as SVG
    /// (absent before the activity has started).
    struct Item: Encodable {
        var card: LiveRecordingView.Card
        var previews: Previews?
    }

    struct Previews: Encodable {
        var lockScreen: String
        var expandedIsland: String
        var compactIsland: String
        var minimalIsland: String
    }

    struct Answer: Encodable {
        var recordings: [Item]
        var recorder: WebRecorder.Status?
    }

    /// Runs `work` on the page's recorder; the answer of `GET /api/live`, or the refusal.
    func recorderAnswer(_ work: (WebRecorder) throws -> Void) -> WebResponse {
        guard let recorder else { return .error(404, "this server does not record") }
        do {
            try work(recorder)
        } catch let error as WebRecorder.Refusal {
            return .error(error.status, error.message)
        } catch {
            return .error(500, CommandRunner.describe(error))
        }
        return .json(answer(now: Date()))
    }

    /// What the page shows at `now`.
    func answer(now: Date) -> Answer {
        let items = recordings.snapshot().views.map { view -> Item in
            var item = Item(card: view.card(now: now))
            if let attributes = view.attributes, let content = view.content {
                let elapsed = view.elapsedSeconds(now: now)
                item.previews = Previews(
                    lockScreen: ActivitySVGRenderer.lockScreen(LockScreenPresentation(attributes: attributes, content: content), elapsedSeconds: elapsed),
                    expandedIsland: ActivitySVGRenderer.expandedIsland(ExpandedIslandPresentation(attributes: attributes, content: content),
                                                                       elapsedSeconds: elapsed),
                    compactIsland: ActivitySVGRenderer.compactIsland(CompactIslandPresentation(content: content), elapsedSeconds: elapsed),
                    minimalIsland: ActivitySVGRenderer.minimalIsland(MinimalIslandPresentation(content: content)))
            }
            return item
        }
        return Answer(recordings: items, recorder: recorder?.status)
    }

    /// `text/event-stream`: an `update` event with the whole answer at once, then whenever it
    /// changes, and once a second while a clock ticks (the previews' timers are drawn by the
    /// server); a comment line every `keepAliveSeconds` when nothing else is sent.
    func events() -> WebResponse {
        // What this stream has sent: the list's version and when.
        let sent = Mutex<(version: Int?, at: Date)>((nil, .distantPast))
        let stream = WebStream { [self] in
            let (version, at) = sent.withLock { $0 }
            var next = recordings.snapshot().version
            if let version {
                let ticking = answer(now: Date()).recordings.contains { $0.card.timer.ticking }
                let wait = ticking ? max(0.05, 1 - Date().timeIntervalSince(at)) : Self.keepAliveSeconds
                guard let changed = recordings.waitForChange(after: version, timeout: wait) else { return nil }
                if changed == version, !ticking {
                    sent.withLock { $0.at = Date() }
                    return Data(": keep-alive\n\n".utf8)
                }
                next = changed
            }
            let now = Date()
            sent.withLock { $0 = (next, now) }
            guard case .data(let json) = WebResponse.json(answer(now: now)).body else { return nil }
            return Data("event: update\ndata: ".utf8) + json.filter { $0 != UInt8(ascii: "\n") } + Data("\n\n".utf8)
        }
        return WebResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no")],
                           body: .stream(stream))
    }
}
