import Dispatch

/// Runs `work`, which blocks (the core's synchronous protocols waiting on Apple's async
/// frameworks: a recognizer finalizing, a language model answering), on a GCD thread rather than
/// on Swift concurrency's small cooperative pool, and returns its result to the caller's task.
///
/// `work` is `sending`: what it captures is handed over and not used by the caller meanwhile.
func runBlocking<T: Sendable>(_ work: sending @escaping () throws -> T) async -> Result<T, any Error> {
    // Safe: `work` was sent, so nothing else touches what it captures; it runs exactly once.
    nonisolated(unsafe) let work = work
    return await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(returning: Result { try work() })
        }
    }
}
