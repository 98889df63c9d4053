import Dispatch

/// Runs `work`, which blocks (the core's synchronous protocols waiting on Apple's async
/// frameworks: a recognizer finalizing, a language model answering), on a GCD thread rather than
/// on Swift concurrency's small cooperative pool, and returns its result to the caller's task.
///
/// `work` is `@Sendable`: it captures only `Sendable` values (a store opener, a runner, ids), and
/// makes whatever it needs that is not `Sendable` (a store, a model) itself, on its own thread.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async -> Result<T, any Error> {
    await withCheckedContinuation { continuation in
        DispatchQueue.global(qos: .userInitiated).async {
            continuation.resume(returning: Result { try work() })
        }
    }
}
