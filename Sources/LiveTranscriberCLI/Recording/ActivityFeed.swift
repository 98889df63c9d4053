import Foundation
import LiveTranscriberCore
import Synchronization

/// Where feed lines go: stdout for "-", else the file at the path, opened by `OutputFile.open`
/// (never replaced). A failed write is remembered, as `FileDescriptorOutput` does for stdout.
final class FeedOutput: Sendable {
    private let output: any TextOutput
    private let file: FileHandle?

    /// - Parameter label: what the file is, for errors ("activity feed", "event stream").
    init(path: String, stdout: any TextOutput, label: String = "activity feed") throws {
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
            throw FeedError(path: path, reason: error.reason, label: label)
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
    var label = "activity feed"
    var description: String { "cannot write the \(label) to \(path): \(reason)" }
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
