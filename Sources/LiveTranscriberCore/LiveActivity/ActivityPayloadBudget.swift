import Foundation

/// Keeps a Live Activity's data within Apple's size limit.
///
/// Apple: the content state of a Live Activity, with its attributes, must not exceed 4 KB, for a
/// local update as for a push. The budget measures the UTF-8 bytes of the JSON that `JSONEncoder`
/// produces for both (so escapes such as `\n` and `\"` count at their encoded size), and when the
/// total is over, it shortens the transcript from the front (keeping the newest words) and then
/// the name from the end, by whole grapheme clusters.
public struct ActivityPayloadBudget: Sendable, Equatable {
    /// Apple's limit: 4 KB.
    public static let appleByteLimit = 4096

    /// The most bytes the JSON of content state plus attributes may take.
    public var byteLimit: Int

    public init(byteLimit: Int = ActivityPayloadBudget.appleByteLimit) {
        self.byteLimit = byteLimit
    }

    /// Apple's 4,096 bytes.
    public static let standard = ActivityPayloadBudget()

    /// Bytes of the encoded content state plus the encoded attributes.
    public static func encodedSize(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState
    ) -> Int {
        byteCount(of: attributes) + byteCount(of: content)
    }

    /// UTF-8 bytes of `value` as `JSONEncoder` (sorted keys, default strategies) writes it.
    public static func byteCount<Value: Encodable>(of value: Value) -> Int {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Encoding these plain values cannot fail; if it ever did, report it as over any budget.
        return (try? encoder.encode(value).count) ?? Int.max
    }

    /// `attributes` and `content`, shortened until their JSON fits in `byteLimit` bytes.
    ///
    /// The transcript goes first (its oldest characters, marked with "…"), then, only if the
    /// transcript is already empty, the name (its last characters, marked with "…").
    /// - Returns: the values unchanged when they already fit.
    /// - Complexity: O(log n) encodings, n the characters of the transcript and of the name.
    public func fit(
        attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState
    ) -> (attributes: RecordingActivityAttributes, content: RecordingActivityAttributes.ContentState) {
        var attributes = attributes
        var content = content
        if Self.encodedSize(attributes: attributes, content: content) <= byteLimit {
            return (attributes, content)
        }
        let transcript = content.transcript
        let kept = Self.largestFitting(upTo: transcript.count) { length in
            var candidate = content
            candidate.transcript = PresentationText.suffix(transcript, maxCharacters: length)
            return Self.encodedSize(attributes: attributes, content: candidate) <= byteLimit
        }
        content.transcript = PresentationText.suffix(transcript, maxCharacters: kept)
        if Self.encodedSize(attributes: attributes, content: content) <= byteLimit {
            return (attributes, content)
        }
        let name = attributes.name
        let keptName = Self.largestFitting(upTo: name.count) { length in
            var candidate = attributes
            candidate.name = PresentationText.prefix(name, maxCharacters: length)
            return Self.encodedSize(attributes: candidate, content: content) <= byteLimit
        }
        attributes.name = PresentationText.prefix(name, maxCharacters: keptName)
        return (attributes, content)
    }

    /// The largest `n` in `0...upper` for which `fits(n)` holds, assuming `fits` is monotonic
    /// (true up to some length, false after); 0 when nothing fits.
    private static func largestFitting(upTo upper: Int, _ fits: (Int) -> Bool) -> Int {
        var low = 0
        var high = upper
        while low < high {
            let middle = (low + high + 1) / 2
            if fits(middle) { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
