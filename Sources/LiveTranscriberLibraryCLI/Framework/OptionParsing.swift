import Foundation
import LiveTranscriberCore

/// Option values checked by the core's rules, shared by the commands of both programs; each
/// throws `UsageError` with the words a user sees.
package enum OptionParsing {
    /// Tags from `--tags a,b` or repeated `--add`/`--remove` values, by the one tag rule
    /// (`RecordingTags`: split at commas, trimmed, empty ones dropped, one of each regardless of case).
    /// Throws `UsageError` for a tag the rule refuses, and for a value that holds no tag at all
    /// (`--tags ",,,"`, `--add ","`): "a tag cannot be empty".
    package static func tags(_ values: [String]) throws -> [String] {
        do {
            for value in values {
                if try RecordingTags.normalized([value]).isEmpty { throw UsageError("a tag cannot be empty") }
            }
            return try RecordingTags.normalized(values)
        } catch let error as LibraryError {
            throw UsageError(String(error.description.dropLast(error.description.hasSuffix(".") ? 1 : 0)))
        }
    }

    /// Tags from `--tags a,b` (nil: none).
    package static func tags(_ text: String?) throws -> [String] {
        try tags(text.map { [$0] } ?? [])
    }

    /// A name for a recording made from a file name (`RecordingName.cleaned`): hidden characters
    /// become spaces, at most 200 characters, "Imported audio" when nothing is left.
    package static func name(fromFileName fileName: String) -> String {
        RecordingName.cleaned(fileName)
    }

    /// A recording's name by the one name rule (`RecordingName.validated`). Throws `UsageError`
    /// naming `option` ("--name", "NAME").
    package static func recordingName(_ text: String, option: String) throws -> String {
        if let problem = RecordingName.problem(in: text) { throw UsageError(problem.message(subject: option)) }
        return try RecordingName.validated(text)
    }

    /// The `--format` option of `record` and `import`, its choices from `RecordingAudioFormat`.
    package static let format = OptionSpec.choice("format", "format", "Stored audio: " + AudioFormatSupport.libsndfile.writes.map { $0 == .wav ? "wav (16-bit, default)" : $0.rawValue }.joined(separator: ", ") + " (m4a is the iPhone app's).", choices: AudioFormatSupport.libsndfile.writes.map(\.rawValue))

    /// `--format wav|flac|opus`, wav when absent. Throws `UsageError` for anything else, m4a
    /// included (recorded by the iPhone app; libsndfile cannot write AAC).
    package static func audioFormat(_ text: String?) throws -> RecordingAudioFormat {
        let name = text ?? RecordingAudioFormat.wav.rawValue
        guard let format = RecordingAudioFormat(rawValue: name) else {
            throw UsageError("--format takes \(RecordingAudioFormat.list(AudioFormatSupport.libsndfile.writes)), not '\(name)'")
        }
        // Known but not writable here (m4a): the one line says why and what to use.
        do {
            try AudioFormatSupport.libsndfile.checkWritable(format)
        } catch let error as AudioFormatUnsupported {
            throw UsageError("--format \(name): \(error.description)")
        }
        return format
    }

    /// "LAT,LON" in degrees. Throws `UsageError` when malformed or out of range.
    package static func location(_ text: String) throws -> RecordingLocation {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1],
              (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw UsageError("--location takes LAT,LON in degrees, such as 48.8566,2.3522, not '\(text)'")
        }
        return RecordingLocation(latitude: latitude, longitude: longitude)
    }

    /// A positive whole number. Throws `UsageError` naming the option.
    package static func positiveInt(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }
}
