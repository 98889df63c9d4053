import Foundation
import LiveTranscriberCore
import Synchronization

/// The recording's own clock: start date + seconds of audio recorded + seconds spent paused.
///
/// Live input advances it at wall-clock speed; `--speed max` advances it as fast as audio is
/// read, so the Live Activity's timer and timestamps follow the recording, not the machine.
final class RecordingTimeline: WallClock {
    private let start: Date
    private let offset = Mutex<Double>(0)

    init(start: Date) {
        self.start = start
    }

    func now() -> Date { start.addingTimeInterval(offset.withLock { $0 }) }

    /// Moves the clock to `seconds` after the start (it never goes back).
    func advance(to seconds: Double) {
        offset.withLock { $0 = max($0, seconds) }
    }
}

/// The Live Activity during `record`: the core's coordinator, fed by the recorder, writing its
/// starts, updates and ends to `--activity-feed` (a file or stdout) and giving the terminal card
/// its Lock Screen view model.
final class RecordingActivity {
    let attributes: RecordingActivityAttributes
    let timeline: RecordingTimeline
    private let coordinator: LiveActivityCoordinator
    private let counter: CountingActivityClient
    private let feed: FeedOutput?
    private var lastTick = -1

    /// Opens the feed. Throws when the feed file cannot be created.
    init(attributes: RecordingActivityAttributes, language: String, feedPath: String?, stdout: any TextOutput) throws {
        self.attributes = attributes
        self.timeline = RecordingTimeline(start: attributes.startDate)
        let feed = try feedPath.map { try FeedOutput(path: $0, stdout: stdout) }
        self.feed = feed
        counter = CountingActivityClient(wrapping: JSONLinesActivityClient { line in feed?.write(line) })
        coordinator = LiveActivityCoordinator(attributes: attributes, language: language, clock: timeline, client: counter)
    }

    /// What the coordinator sent so far.
    var counts: CountingActivityClient.Counts { counter.counts }

    /// Why the feed file could not be written, if it could not.
    var feedFailure: String? { feed?.failure }

    func started() { coordinator.recordingStarted() }
    func finalsChanged(_ finals: [TranscriptSegment]) { coordinator.finalSegmentsChanged(finals) }
    func interimChanged(_ text: String) { coordinator.interimChanged(text) }
    func paused() { coordinator.paused() }
    func resumed() { coordinator.resumed() }
    func stopped() { coordinator.stopped() }
    func end(dismissal: ActivityDismissalPolicy) {
        coordinator.end(dismissal: dismissal)
        feed?.close()
    }

    /// Advances the timeline; every 5 s of it, lets the coordinator's time rules run.
    func advance(to seconds: Double) {
        timeline.advance(to: seconds)
        let tick = Int(seconds) / 5
        if tick != lastTick {
            lastTick = tick
            coordinator.clockTicked()
        }
    }

    /// The Lock Screen view model of the latest content state, for the terminal card.
    var presentation: LockScreenPresentation? {
        coordinator.lastContentState.map { LockScreenPresentation(attributes: attributes, content: $0) }
    }
}

/// Where feed lines go: stdout for "-", else the file at the path, opened by `OutputFile.open`
/// (never replaced). A failed write is remembered, as `FileDescriptorOutput` does for stdout.
final class FeedOutput: Sendable {
    private let output: any TextOutput
    private let file: FileHandle?

    init(path: String, stdout: any TextOutput) throws {
        guard path != "-" else {
            output = stdout
            file = nil
            return
        }
        do {
            let handle = try OutputFile.open(path)
            file = handle
            output = FileDescriptorOutput(fileDescriptor: handle.fileDescriptor)
        } catch let error as OutputFileError {
            throw FeedError(path: path, reason: error.reason)
        }
    }

    func write(_ line: String) { output.write(line + "\n") }

    /// Why writing the feed file failed, if it did (stdout failures are reported for stdout).
    var failure: String? { file == nil ? nil : (output as? FileDescriptorOutput)?.writeFailure }

    func close() { try? file?.close() }
}

struct FeedError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "cannot write the activity feed to \(path): \(reason)" }
}

/// Forwards to another client and counts what passes, for `record --stats` and the benchmark.
final class CountingActivityClient: ActivityClient {
    struct Counts: Equatable {
        var starts = 0
        var updates = 0
        var ends = 0
        /// The largest JSON-encoded content state plus attributes, in UTF-8 bytes (Apple: at most 4 KB).
        var largestPayloadBytes = 0
        /// Bytes of the encoded attributes, measured at the request.
        fileprivate var attributesBytes = 0
    }

    private let inner: any ActivityClient
    private let state = Mutex(Counts())

    init(wrapping inner: any ActivityClient) {
        self.inner = inner
    }

    var counts: Counts { state.withLock { $0 } }

    func request(attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState,
                 staleDate: Date?, timestamp: Date) throws -> String {
        let size = ActivityPayloadBudget.encodedSize(attributes: attributes, content: content)
        state.withLock {
            $0.starts += 1
            $0.attributesBytes = ActivityPayloadBudget.byteCount(of: attributes)
            $0.largestPayloadBytes = max($0.largestPayloadBytes, size)
        }
        return try inner.request(attributes: attributes, content: content, staleDate: staleDate, timestamp: timestamp)
    }

    func update(activityID: String, content: RecordingActivityAttributes.ContentState, timestamp: Date, staleDate: Date?) {
        let size = ActivityPayloadBudget.byteCount(of: content)
        state.withLock { $0.updates += 1; $0.largestPayloadBytes = max($0.largestPayloadBytes, size + $0.attributesBytes) }
        inner.update(activityID: activityID, content: content, timestamp: timestamp, staleDate: staleDate)
    }

    func end(activityID: String, content: RecordingActivityAttributes.ContentState?,
             dismissalPolicy: ActivityDismissalPolicy, timestamp: Date) {
        state.withLock { $0.ends += 1 }
        inner.end(activityID: activityID, content: content, dismissalPolicy: dismissalPolicy, timestamp: timestamp)
    }
}
