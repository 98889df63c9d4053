import Foundation

/// How a recording's audio file is stored.
public struct AudioDescription: Sendable, Equatable, Hashable, Codable {
    /// File format: "wav", "flac", "opus" or "m4a" (`StoredAudioFormat`; a JSON string).
    public var format: StoredAudioFormat
    /// Frames per second (Hz) of the stored file.
    public var sampleRate: Int
    /// Channels of the stored file (stereo stays stereo).
    public var channels: Int

    public init(format: StoredAudioFormat, sampleRate: Int, channels: Int) {
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// Where a recording was made.
public struct RecordingLocation: Sendable, Equatable, Hashable, Codable {
    /// Degrees, -90…90.
    public var latitude: Double
    /// Degrees, -180…180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A saved recording's metadata: the `metadata.json` of its folder and the JSON that `--json` prints.
///
/// JSON keys: `id`, `name`, `createdAt` (ISO 8601), `duration` (seconds), `language`, `tags`,
/// `audio` (`format`, `sampleRate`, `channels`), `summary`, `location`, `recovered`, `audioDigest`
/// (only for imported recordings), `vocabulary` (only when the recognizer was given one), `speakers`
/// (only when the transcript's speakers were labelled: `[{"id": "S1", "name": null}]`), `translation`
/// (only when a translation is kept: its language, "en"), `notes` (only when there are any).
public struct Recording: Sendable, Equatable, Hashable, Codable, Identifiable {
    /// Stable identifier, also the recording's folder name.
    public var id: String
    /// User-visible name.
    public var name: String
    /// When recording started.
    public var createdAt: Date
    /// Seconds of audio, pauses excluded; never negative or non-finite (see `storableDuration`).
    public var durationSeconds: Double {
        didSet { durationSeconds = Self.storableDuration(durationSeconds) }
    }
    /// BCP 47 tag of the transcription language, such as "en-US".
    public var language: String
    /// Tags, in the order the user gave them, without duplicates.
    public var tags: [String]
    /// The stored audio file.
    public var audio: AudioDescription
    /// One-sentence summary, when one was made.
    public var summary: String?
    /// Where the recording was made, when the user chose to keep it.
    public var location: RecordingLocation?
    /// True when the recording was rebuilt from a draft left by a crash.
    public var recovered: Bool
    /// The digest of the audio content (its decoded samples, rate and channels; "sha256:<hex>",
    /// see `AudioFileMeasuring.contentDigest`), so importing the same audio again is noticed: for
    /// an imported recording, the imported file's; for a recorded or recovered one, the saved
    /// audio file's. Nil for recordings saved before digests were kept.
    public var audioDigest: String?
    /// The terms the recognizer was given as its vocabulary (`Vocabulary`, as bounded for its
    /// prompt); empty when none. Absent from files written before vocabularies were kept.
    public var vocabulary: [String]
    /// The voices the transcript's segments name (`TranscriptSegment.speaker`), in order of first
    /// speech, with the names the user gave; empty when speakers were not labelled.
    public var speakers: [Speaker]
    /// The language of the translation kept next to the transcript (`RecordingStore.translation`,
    /// whisper's translate task: "en"); nil when none was made.
    public var translation: String?
    /// Notes on how the transcript was made, one sentence each, in the order they arose: a segment
    /// dropped as one of Whisper's invented phrases (`InventedPhrases.note`). Empty when none; a
    /// new transcript brings its own.
    public var notes: [String]

    public init(
        id: String, name: String, createdAt: Date, durationSeconds: Double, language: String,
        tags: [String] = [], audio: AudioDescription, summary: String? = nil,
        location: RecordingLocation? = nil, recovered: Bool = false, audioDigest: String? = nil,
        vocabulary: [String] = [], speakers: [Speaker] = [], translation: String? = nil, notes: [String] = []
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.durationSeconds = Self.storableDuration(durationSeconds)
        self.language = language
        self.tags = tags
        self.audio = audio
        self.summary = summary
        self.location = location
        self.recovered = recovered
        self.audioDigest = audioDigest
        self.vocabulary = vocabulary
        self.speakers = speakers
        self.translation = translation
        self.notes = notes
    }

    /// The speaker `id` names, as the recording knows it (unnamed when it has no entry).
    public func speaker(_ id: String) -> Speaker {
        Speaker.named(id, in: speakers)
    }

    /// The one rule for a duration the library keeps: a finite number of seconds, at least 0
    /// (NaN, infinities and negative values become 0). The store also never keeps a duration
    /// longer than the audio file holds.
    public static func storableDuration(_ seconds: Double) -> Double {
        seconds.isFinite && seconds > 0 ? seconds : 0
    }

    /// The one rule for a duration against its audio: no recording is longer than its audio.
    ///
    /// A duration that is not finite, or that passes what the audio file states by more than
    /// rounding (`durationTolerance`), becomes the audio's; any other is kept (`storableDuration`).
    /// Used when a recording is saved, recovered, reindexed and read, so metadata written before
    /// the rule existed is corrected too.
    /// - Parameters:
    ///   - seconds: the duration as stated (metadata, or the recorder's count).
    ///   - audioSeconds: seconds of audio the file's header states; nil when it states none (the
    ///     duration is then kept: nothing says it is wrong).
    /// - Returns: seconds, finite and at least 0.
    public static func duration(_ seconds: Double, audioSeconds: Double?) -> Double {
        guard let audio = audioSeconds, audio.isFinite, audio >= 0 else { return storableDuration(seconds) }
        return !seconds.isFinite || seconds > audio + durationTolerance ? audio : storableDuration(seconds)
    }

    /// Audio shorter than this (seconds) is no audio: nothing is saved from it (a recording
    /// stopped at once, a WAV cut off just after its header) and a crashed draft holding only
    /// that much, with no segment, is removed rather than recovered. 0.1 s is the shortest input
    /// whisper.cpp decodes (`whisper_full` refuses less: "input is too short … < 100 ms"), and
    /// shorter than any spoken word.
    public static let shortestAudioSeconds = 0.1

    /// True when `frames` at `sampleRate` (frames per second) reach `shortestAudioSeconds`.
    public static func holdsAudio(frames: Int64, sampleRate: Int) -> Bool {
        frames > 0 && Double(frames) >= shortestAudioSeconds * Double(sampleRate)
    }

    /// How far a duration may pass its audio file's stated length before it is corrected:
    /// half a second, for durations counted from blocks and rounded.
    public static let durationTolerance = 0.5

    /// The keys of `metadata.json`, of `--json` output and of the index's `metadata` column: a new
    /// field is added here and in the two methods below, and nowhere else.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, createdAt, language, tags, audio, summary, location, recovered, audioDigest, vocabulary, speakers, translation, notes
        case durationSeconds = "duration"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        durationSeconds = Self.storableDuration(try container.decode(Double.self, forKey: .durationSeconds))
        language = try container.decode(String.self, forKey: .language)
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        audio = try container.decode(AudioDescription.self, forKey: .audio)
        summary = try container.decodeIfPresent(String.self, forKey: .summary)
        location = try container.decodeIfPresent(RecordingLocation.self, forKey: .location)
        recovered = try container.decodeIfPresent(Bool.self, forKey: .recovered) ?? false
        audioDigest = try container.decodeIfPresent(String.self, forKey: .audioDigest)
        vocabulary = try container.decodeIfPresent([String].self, forKey: .vocabulary) ?? []
        speakers = try container.decodeIfPresent([Speaker].self, forKey: .speakers) ?? []
        translation = try container.decodeIfPresent(String.self, forKey: .translation)
        notes = try container.decodeIfPresent([String].self, forKey: .notes) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encode(language, forKey: .language)
        try container.encode(tags, forKey: .tags)
        try container.encode(audio, forKey: .audio)
        try container.encode(summary, forKey: .summary)  // null when absent: a stable shape for scripts
        try container.encodeIfPresent(location, forKey: .location)
        try container.encode(recovered, forKey: .recovered)
        try container.encodeIfPresent(audioDigest, forKey: .audioDigest)
        if !vocabulary.isEmpty { try container.encode(vocabulary, forKey: .vocabulary) }
        if !speakers.isEmpty { try container.encode(speakers, forKey: .speakers) }
        try container.encodeIfPresent(translation, forKey: .translation)
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
    }
}

/// A recording with its transcript: what `show --json` and `record --json` print.
public struct RecordingWithTranscript: Sendable, Equatable, Codable {
    public var recording: Recording
    /// Final segments in start order.
    public var segments: [TranscriptSegment]

    public init(recording: Recording, segments: [TranscriptSegment]) {
        self.recording = recording
        self.segments = segments
    }

    enum CodingKeys: String, CodingKey { case segments }

    public init(from decoder: any Decoder) throws {
        recording = try Recording(from: decoder)
        segments = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([TranscriptSegment].self, forKey: .segments) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        try recording.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(segments, forKey: .segments)
    }
}

extension JSONEncoder {
    /// The project's JSON style: ISO 8601 dates, sorted keys, pretty printed, slashes unescaped.
    public static var liveTranscriber: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

extension JSONDecoder {
    /// Reads what `JSONEncoder.liveTranscriber` writes.
    public static var liveTranscriber: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
