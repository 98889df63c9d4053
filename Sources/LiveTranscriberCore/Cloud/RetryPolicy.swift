import Foundation

/// When to retry an HTTP request and how long to wait first. Pure: the caller sleeps.
///
/// Retried: 408 (timeout), 429 (rate limited), 5xx server errors, and transport failures (no status).
/// Never retried, since a retry cannot succeed and each one uploads the whole request again:
/// every other status (notably 400, 401, 403, 404, 413, 415); 501 (not implemented) and 505
/// (HTTP version not supported); and a 429 whose error code says the account is out of quota or
/// billing (`insufficient_quota`, `billing_hard_limit_reached`, `billing_not_active`,
/// `access_terminated`), which OpenAI sends with the same status as a rate limit.
/// The wait is `baseDelaySeconds * 2^(attempt - 1)` capped at `maximumDelaySeconds`, unless the
/// server sent `Retry-After` in seconds, which is honoured (also capped).
public struct RetryPolicy: Sendable, Equatable {
    /// Attempts in all, the first one included.
    public var maximumAttempts: Int
    public var baseDelaySeconds: Double
    public var maximumDelaySeconds: Double

    public init(maximumAttempts: Int, baseDelaySeconds: Double, maximumDelaySeconds: Double) {
        self.maximumAttempts = maximumAttempts
        self.baseDelaySeconds = baseDelaySeconds
        self.maximumDelaySeconds = maximumDelaySeconds
    }

    /// For OpenAI's API: 4 attempts, waiting 1, 2 and 4 seconds, at most 60.
    public static let openAI = RetryPolicy(maximumAttempts: 4, baseDelaySeconds: 1, maximumDelaySeconds: 60)

    public enum Decision: Sendable, Equatable {
        /// Wait this many seconds, then try again.
        case retry(afterSeconds: Double)
        /// Give up and report the failure.
        case stop
    }

    /// What to do after attempt number `attempt` (1-based) failed.
    ///
    /// - Parameters:
    ///   - status: The HTTP status, or nil when no response arrived.
    ///   - attempt: The attempt that just failed, from 1.
    ///   - retryAfter: The `Retry-After` header's value, if any; only whole or decimal seconds are read.
    ///   - errorCode: The error body's `error.code` (or `error.type`), if any.
    public func decide(status: Int?, attempt: Int, retryAfter: String? = nil, errorCode: String? = nil) -> Decision {
        guard attempt < maximumAttempts, Self.isRetryable(status, errorCode: errorCode) else { return .stop }
        if let retryAfter, let seconds = Double(retryAfter.trimmingCharacters(in: .whitespaces)),
           seconds.isFinite, seconds >= 0 {
            return .retry(afterSeconds: min(seconds, maximumDelaySeconds))
        }
        let exponent = Double(max(0, attempt - 1))
        return .retry(afterSeconds: min(baseDelaySeconds * pow(2, exponent), maximumDelaySeconds))
    }

    /// True for 408, 429 (unless `errorCode` is a quota or billing code), 5xx but 501 and 505,
    /// and for a missing status (transport failure).
    public static func isRetryable(_ status: Int?, errorCode: String? = nil) -> Bool {
        guard let status else { return true }
        if status == 429, let errorCode, permanentErrorCodes.contains(errorCode) { return false }
        return status == 408 || status == 429 || (500...599).contains(status) && status != 501 && status != 505
    }

    /// Error codes that no retry can fix, whatever the status.
    public static let permanentErrorCodes: Set<String> = [
        "insufficient_quota", "billing_hard_limit_reached", "billing_not_active", "access_terminated",
    ]
}
