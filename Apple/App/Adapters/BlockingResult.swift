import Foundation
import Synchronization

/// Hands the result of asynchronous work to a synchronous caller: the core's service protocols
/// (`LanguageModel`, `SpeechRecognizer.finish`) are synchronous, Apple's frameworks are async.
///
/// `wait()` blocks the calling thread, so it is only called from the recording engine's or the
/// summary's own background thread, never from the main actor or a Swift concurrency task.
final class BlockingResult<Value: Sendable>: Sendable {
    private let result = Mutex<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Stores the result and wakes the waiter; later calls are ignored.
    func finish(_ value: Result<Value, any Error>) {
        let first = result.withLock { stored -> Bool in
            guard stored == nil else { return false }
            stored = value
            return true
        }
        if first { done.signal() }
    }

    /// Waits for `finish` and returns its value or throws its error.
    func wait() throws -> Value {
        done.wait()
        // finish stored a value before signalling.
        return try result.withLock { $0! }.get()
    }
}
