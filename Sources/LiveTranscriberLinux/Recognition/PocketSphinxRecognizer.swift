import CPocketSphinx
import Foundation
import LiveTranscriberCore

/// Where the pocketsphinx acoustic model, language model and dictionary live.
public struct PocketSphinxModel: Sendable, Equatable {
    /// Folder of the acoustic model (mdef, means, variances, …).
    public var acousticModel: String
    /// Binary n-gram language model.
    public var languageModel: String
    /// Pronunciation dictionary.
    public var dictionary: String
    /// BCP 47 tag of the model's language.
    public var language: String

    public init(acousticModel: String, languageModel: String, dictionary: String, language: String) {
        self.acousticModel = acousticModel
        self.languageModel = languageModel
        self.dictionary = dictionary
        self.language = language
    }

    /// The US English model from Debian's pocketsphinx-en-us package.
    public static let englishUS = PocketSphinxModel(
        acousticModel: "/usr/share/pocketsphinx/model/en-us/en-us",
        languageModel: "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin",
        dictionary: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict",
        language: "en-US"
    )
}

/// Why the recognizer could not start or run.
public enum RecognizerError: Error, Equatable, CustomStringConvertible {
    case modelMissing(path: String)
    case initializationFailed
    case decodeFailed(function: String, code: Int32)
    /// The engine cannot serve the request (a language or option it does not support); the text says why.
    case unsupported(String)

    public var description: String {
        switch self {
        case .modelMissing(let path):
            return "the speech model is missing at \(path); install the Debian package pocketsphinx-en-us"
        case .initializationFailed:
            return "pocketsphinx could not load its model"
        case .decodeFailed(let function, let code):
            return "pocketsphinx failed in \(function) (code \(code))"
        case .unsupported(let reason):
            return reason
        }
    }
}

/// Streaming speech recognition with pocketsphinx (CMU Sphinx), 16 kHz mono 16-bit input.
///
/// Endpointing uses the decoder's voice activity detector: an utterance starts when
/// `ps_get_in_speech` turns true and ends when it turns false again (after about 0.5 s of
/// silence); the hypothesis of the ended utterance becomes a final segment. While in speech,
/// the partial hypothesis is reported as interim text whenever it changes.
///
/// Word times come from `ps_seg_frames`, whose frame numbers already count from the start
/// of the stream, so no per-utterance offset is added.
public final class PocketSphinxRecognizer: SpeechRecognizer {
    private let config: OpaquePointer
    private let decoder: OpaquePointer
    private let framesPerSecond: Double
    private var inUtterance = false
    private var lastInterim = ""
    public let language: String
    /// 16 kHz mono 16-bit, 100 ms at a time.
    public let inputFormat = RecognizerInputFormat(sampleRate: 16_000, encoding: .int16, blockSamples: 1_600)
    public let delivery = RecognitionDelivery.streaming

    /// Loads the model. Throws `RecognizerError.modelMissing` when a model file is absent.
    public init(model: PocketSphinxModel = .englishUS) throws {
        for path in [model.acousticModel, model.languageModel, model.dictionary]
        where !FileManager.default.fileExists(atPath: path) {
            throw RecognizerError.modelMissing(path: path)
        }
        guard let config = lt_ps_config(model.acousticModel, model.languageModel, model.dictionary) else {
            throw RecognizerError.initializationFailed
        }
        guard let decoder = ps_init(config) else {
            cmd_ln_free_r(config)
            throw RecognizerError.initializationFailed
        }
        self.config = config
        self.decoder = decoder
        self.framesPerSecond = Double(lt_ps_frame_rate(config))
        self.language = model.language
        try check(ps_start_stream(decoder), "ps_start_stream")
        try check(ps_start_utt(decoder), "ps_start_utt")
    }

    deinit {
        ps_free(decoder)
        cmd_ln_free_r(config)
    }

    public func accept(_ block: RecognizerSamples) throws -> [RecognitionEvent] {
        let samples = block.int16s
        guard !samples.isEmpty else { return [] }
        let processed = samples.withUnsafeBufferPointer { buffer in
            ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 0)
        }
        if processed < 0 { throw RecognizerError.decodeFailed(function: "ps_process_raw", code: processed) }
        let inSpeech = ps_get_in_speech(decoder) != 0
        if inSpeech {
            inUtterance = true
            return interimEvent()
        }
        if inUtterance {
            return try endUtterance(restart: true)
        }
        return []
    }

    /// Decodes as it accepts, so it finishes at once: every event is in the ending, none delivered.
    /// At a stop request the utterance in progress is not ended with `ps_end_utt`, whose second
    /// pass (`fwdflat`) over a long utterance took seconds (11.9 s under load for a minute of
    /// continuous speech): its final is the first pass's hypothesis, which is what was decoded so far.
    public func finish(stopRequested: Bool, abandoning: () -> Bool, delivering: ([RecognitionEvent]) -> Void) throws -> RecognitionEnding {
        guard stopRequested else { return RecognitionEnding(events: try endUtterance(restart: false)) }
        guard inUtterance else { return RecognitionEnding(events: []) }
        let segment = finalSegment()
        inUtterance = false
        lastInterim = ""
        return RecognitionEnding(events: segment.map { [.final($0)] } ?? [])
    }

    private func interimEvent() -> [RecognitionEvent] {
        guard let hypothesis = ps_get_hyp(decoder, nil) else { return [] }
        let text = String(cString: hypothesis)
        guard !text.isEmpty, text != lastInterim else { return [] }
        lastInterim = text
        return [.interim(text)]
    }

    /// Ends the utterance in progress and returns its final segment, if it holds any words.
    private func endUtterance(restart: Bool) throws -> [RecognitionEvent] {
        try check(ps_end_utt(decoder), "ps_end_utt")
        let segment = finalSegment()
        inUtterance = false
        lastInterim = ""
        if restart { try check(ps_start_utt(decoder), "ps_start_utt") }
        // A false trigger (noise, a cough) ends with no words: it is dropped.
        return segment.map { [.final($0)] } ?? []
    }

    private func finalSegment() -> TranscriptSegment? {
        var words: [WordTiming] = []
        var iterator = ps_seg_iter(decoder)
        while let segment = iterator {
            if let raw = ps_seg_word(segment), let word = Self.spokenWord(String(cString: raw)) {
                var startFrame: Int32 = 0
                var endFrame: Int32 = 0
                ps_seg_frames(segment, &startFrame, &endFrame)
                // A frame covers 1/frate seconds; the end frame is inclusive.
                let start = Double(startFrame) / framesPerSecond
                let end = max(start, Double(endFrame + 1) / framesPerSecond)
                words.append(WordTiming(word: word, startSeconds: start, endSeconds: end))
            }
            iterator = ps_seg_next(segment)
        }
        guard let first = words.first, let last = words.last else { return nil }
        let text = words.map(\.word).joined(separator: " ")
        return TranscriptSegment(text: text, startSeconds: first.startSeconds, endSeconds: last.endSeconds, words: words)
    }

    /// The word as spoken, or nil for silence and filler tokens (`<s>`, `<sil>`, `[NOISE]`, `++UH++`).
    /// Strips pronunciation variants: "and(2)" is "and".
    static func spokenWord(_ token: String) -> String? {
        if token.hasPrefix("<") || token.hasPrefix("[") || token.hasPrefix("++") { return nil }
        var word = token
        if word.hasSuffix(")"), let open = word.lastIndex(of: "(") {
            word = String(word[..<open])
        }
        return word.isEmpty ? nil : word
    }

    private func check(_ code: Int32, _ function: String) throws {
        if code < 0 { throw RecognizerError.decodeFailed(function: function, code: code) }
    }
}
