import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// Where `record` takes its audio from.
enum RecordingInput: Equatable {
    /// An ALSA capture device.
    case microphone(device: String, sampleRate: Int, channels: Int)
    /// Any file libsndfile reads.
    case file(path: String)
    /// Headerless signed 16-bit little-endian PCM from a file, or stdin when path is "-".
    case rawPCM(path: String, sampleRate: Int, channels: Int)

    var isLive: Bool { if case .microphone = self { true } else { false } }
    var readsStandardInput: Bool { if case .rawPCM("-", _, _) = self { true } else { false } }

    /// Opens the source. Throws `AudioFileError` with a clear reason.
    func open() throws -> any AudioSource {
        switch self {
        case .microphone(let device, let rate, let channels):
            return try ALSAMicrophone(device: device, sampleRate: rate, channels: channels)
        case .file(let path):
            return try SndFileReader(path: path)
        case .rawPCM(let path, let rate, let channels):
            return try RawPCMReader(path: path, sampleRate: rate, channels: channels)
        }
    }
}

/// How fast a file input is played into the recorder.
enum PlaybackSpeed: Equatable {
    /// `--speed N`: N seconds of audio per second of wall time (1 is real time).
    case factor(Double)
    /// `--speed max`: as fast as the machine allows.
    case max

    /// Seconds of audio per second of wall time; nil for `max`.
    var factor: Double? { if case .factor(let value) = self { value } else { nil } }

    /// The slowest and fastest factors: a tenth of real time, a hundred times real time.
    static let factors = 0.1...100.0

    /// Parses "1", "2.5" or "max". Throws `UsageError` otherwise.
    static func parse(_ text: String) throws -> PlaybackSpeed {
        if text == "max" { return .max }
        guard let value = Double(text), factors.contains(value) else {
            throw UsageError("--speed takes a number from 0.1 to 100 or 'max', not '\(text)'")
        }
        return .factor(value)
    }
}

/// Everything `record` was asked to do, validated.
struct RecordingOptions {
    var input: RecordingInput
    var speed: PlaybackSpeed
    var name: String?
    var tags: [String]
    var location: RecordingLocation?
    var format: RecordingAudioFormat
    var activityFeed: String?
    var json: Bool
    var discard: Bool
    /// True for `import`: a stop request (Ctrl-C, SIGTERM) discards the file in progress instead
    /// of saving it; `record` saves what it has.
    var stopCancels = false
}

enum OptionParsing {
    /// "a, b,,a" → ["a", " b", "", "a"]: the library trims them, drops empty ones and repeats.
    /// Throws `UsageError` for a tag with control characters or over 100 characters.
    static func tags(_ text: String?) throws -> [String] {
        let tags = text.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        try tags.forEach { try checkTag($0) }
        return tags
    }

    /// Throws `UsageError` for a tag with control characters or over 100 characters.
    static func checkTag(_ tag: String) throws {
        if tag.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw UsageError("a tag must be one line without control characters")
        }
        if tag.count > 100 { throw UsageError("a tag is longer than 100 characters") }
    }

    /// A name for a recording made from a file name: control characters become spaces, runs of
    /// white space one space, at most 200 characters; "Imported audio" when nothing is left.
    static func name(fromFileName fileName: String) -> String {
        let scalars = fileName.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) }
        let words = String(scalars).split(whereSeparator: { $0.isWhitespace })
        let name = String(words.joined(separator: " ").prefix(200))
        return name.isEmpty ? "Imported audio" : name
    }

    /// A recording's name: one line of at most 200 characters, no control characters, trimmed.
    /// Throws `UsageError` naming `option` ("--name", "NAME").
    static func recordingName(_ text: String, option: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw UsageError("\(option) cannot be empty") }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw UsageError("\(option) must be one line without control characters")
        }
        guard name.count <= 200 else { throw UsageError("\(option) is longer than 200 characters") }
        return name
    }

    /// `--format wav|flac|opus`, wav when absent. Throws `UsageError` for anything else.
    static func audioFormat(_ text: String?) throws -> RecordingAudioFormat {
        let name = text ?? RecordingAudioFormat.wav.rawValue
        guard let format = RecordingAudioFormat(rawValue: name) else {
            throw UsageError("--format takes wav, flac or opus, not '\(name)'")
        }
        return format
    }

    /// "LAT,LON" in degrees. Throws `UsageError` when malformed or out of range.
    static func location(_ text: String) throws -> RecordingLocation {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1],
              (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw UsageError("--location takes LAT,LON in degrees, such as 48.8566,2.3522, not '\(text)'")
        }
        return RecordingLocation(latitude: latitude, longitude: longitude)
    }

    /// A positive whole number. Throws `UsageError` naming the option.
    static func positiveInt(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("--\(option) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }
}
