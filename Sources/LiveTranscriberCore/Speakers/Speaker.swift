import Foundation

/// One voice of a recording, as its transcript labels it (`TranscriptSegment.speaker`).
///
/// JSON: `{"id": "S1", "name": "Anna"}`, `name` null until the user names the speaker.
public struct Speaker: Sendable, Equatable, Hashable, Codable {
    /// Stable id within the recording: "S1", "S2"…, numbered in order of first speech.
    public var id: String
    /// The name the user gave (`speaker ID S1 --name Anna`); nil for none.
    public var name: String?

    public init(id: String, name: String? = nil) {
        self.id = id
        self.name = name
    }

    /// The id of the speaker numbered `number` (1 for the first to speak): "S1".
    public static func id(number: Int) -> String { "S\(number)" }

    /// The number in an id made by `id(number:)`; nil for any other text.
    public static func number(of id: String) -> Int? {
        guard id.hasPrefix("S"), let number = Int(id.dropFirst()), number > 0, id == Self.id(number: number) else { return nil }
        return number
    }

    /// The entry for `id` in `speakers` (a recording's list), or an unnamed speaker when it has none.
    public static func named(_ id: String, in speakers: [Speaker]) -> Speaker {
        speakers.first { $0.id == id } ?? Speaker(id: id)
    }

    /// What a reader sees: the user's name, else "Speaker 1" for S1 (the id itself for any other id).
    public var displayName: String {
        if let name, !name.isEmpty { return name }
        return Self.number(of: id).map { "Speaker \($0)" } ?? id
    }

    enum CodingKeys: String, CodingKey { case id, name }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)  // null when unnamed: a stable shape for scripts
    }
}

/// A stretch of audio in which one voice speaks, as a diarizer finds it.
public struct SpeakerTurn: Sendable, Equatable, Hashable {
    /// Seconds from the start of the recording.
    public var startSeconds: Double
    /// Seconds from the start of the recording; after `startSeconds`.
    public var endSeconds: Double
    /// The diarizer's label of the voice (its cluster number): the same for every turn of one
    /// voice within one run, with no meaning across runs.
    public var speaker: Int

    public init(startSeconds: Double, endSeconds: Double, speaker: Int) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.speaker = speaker
    }

    /// Seconds; never negative.
    public var durationSeconds: Double { max(0, endSeconds - startSeconds) }

    /// Seconds this turn and the span `start`…`end` (seconds) share; 0 when apart.
    public func overlap(_ start: Double, _ end: Double) -> Double {
        max(0, min(endSeconds, end) - max(startSeconds, start))
    }
}

/// Finds who speaks when in an audio file: the seam in front of an offline diarization model
/// (sherpa-onnx on Linux). Fakes stand in for it in core tests only.
public protocol SpeakerDiarizer: Sendable {
    /// The turns of each voice in `audio` (any file the platform's audio library reads), in any
    /// order; none for audio without speech.
    /// - Parameter speakerCount: the number of voices when the user knows it; nil to find it.
    /// - Throws: `SpeakerModelsMissing` when the models are not installed or cannot be loaded;
    ///   what reading the audio throws; `TranscriptionCancelled` when stopped.
    func turns(in audio: URL, speakerCount: Int?) throws -> [SpeakerTurn]
}

/// The speaker models are not installed, or cannot be loaded: the transcript is saved without
/// speaker labels, and this says how to install them, in one line.
public struct SpeakerModelsMissing: Error, Equatable, CustomStringConvertible {
    /// What is wrong, one clause: "no speaker model at /path".
    public var reason: String

    public init(reason: String) { self.reason = reason }

    public var description: String {
        "speaker labels were not made: \(reason); install the speaker models with 'make deps' (scripts/install-speakers.sh), "
            + "or give --no-speakers"
    }
}
