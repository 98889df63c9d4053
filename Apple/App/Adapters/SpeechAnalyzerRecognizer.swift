import AVFoundation
import Foundation
import LiveTranscriberCore
import Speech
import Synchronization

/// The core's `SpeechRecognizer` over Apple's on-device `SpeechAnalyzer` with a
/// `SpeechTranscriber`: volatile results become interim text, final results final segments with
/// word times.
///
/// The analyzer says which audio it wants (`SpeechAnalyzer.bestAvailableAudioFormat`); this
/// recognizer states that rate and sample encoding as its `inputFormat`, so the core's pipeline
/// downmixes and resamples to exactly it. Results arrive on the analyzer's own schedule: `accept`
/// hands over the events that arrived since the previous call, in order; `finish` waits until the
/// analyzer has finalized everything it was given. Both are called from the recording engine's
/// background thread, never from the main actor (`finish` blocks).
final class SpeechAnalyzerRecognizer: SpeechRecognizer {
    let language: String
    let inputFormat: RecognizerInputFormat
    let delivery: RecognitionDelivery = .streaming

    /// The analyzer's audio format, for Settings' developer diagnostics ("16000 Hz, Int16, mono").
    let analyzerFormatDescription: String

    private let analyzer: SpeechAnalyzer
    private let bufferFormat: AVAudioFormat
    private let input: AsyncStream<AnalyzerInput>.Continuation
    private let inbox: EventInbox
    private let resultsTask: Task<Void, Never>

    /// Prepares a recognizer for `language` (BCP 47), downloading the on-device model if needed.
    /// - Throws: `SpeechAnalyzerRecognizerError` when the language is not supported or the
    ///   analyzer offers no audio format; the framework's error when the model cannot be installed.
    static func make(language: String) async throws -> SpeechAnalyzerRecognizer {
        guard SpeechTranscriber.isAvailable else { throw SpeechAnalyzerRecognizerError.unavailable }
        guard let locale = await SpeechTranscriber.supportedLocale(equivalentTo: Locale(identifier: language)) else {
            throw SpeechAnalyzerRecognizerError.unsupportedLanguage(language)
        }
        let transcriber = SpeechTranscriber(
            locale: locale, transcriptionOptions: [], reportingOptions: [.volatileResults],
            attributeOptions: [.audioTimeRange])
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        guard let best = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else {
            throw SpeechAnalyzerRecognizerError.noAudioFormat
        }
        let recognizer = SpeechAnalyzerRecognizer(language: language, transcriber: transcriber, best: best)
        try await recognizer.analyzer.start(inputSequence: recognizer.inputStream)
        return recognizer
    }

    private let inputStream: AsyncStream<AnalyzerInput>

    private init(language: String, transcriber: SpeechTranscriber, best: AVAudioFormat) {
        self.language = language
        // The core hands over mono blocks of 16-bit integers or floats: keep the analyzer's rate
        // and encoding, one channel.
        let encoding: SampleEncoding = best.commonFormat == .pcmFormatInt16 ? .int16 : .float32
        let rate = best.sampleRate
        bufferFormat = AVAudioFormat(
            commonFormat: encoding == .int16 ? .pcmFormatInt16 : .pcmFormatFloat32, sampleRate: rate,
            channels: 1, interleaved: false) ?? best
        inputFormat = RecognizerInputFormat(
            sampleRate: Int(rate.rounded()), encoding: encoding, blockSamples: max(1, Int(rate / 10)))
        analyzerFormatDescription = "\(Int(rate)) Hz, \(encoding == .int16 ? "Int16" : "Float32"), mono"
        analyzer = SpeechAnalyzer(modules: [transcriber])
        (inputStream, input) = AsyncStream<AnalyzerInput>.makeStream(bufferingPolicy: .unbounded)
        let inbox = EventInbox()
        self.inbox = inbox
        // The results task owns nothing of the recognizer: it reads the (Sendable) transcriber's
        // results and leaves them in the (Sendable) inbox.
        resultsTask = Task.detached(priority: .userInitiated) {
            do {
                for try await result in transcriber.results {
                    inbox.append(RecognitionEvent(result))
                }
            } catch {
                inbox.fail(error)
            }
        }
    }

    func accept(_ samples: RecognizerSamples) throws -> [RecognitionEvent] {
        try inbox.throwIfFailed()
        guard samples.count > 0 else { return inbox.drain() }
        guard let buffer = AVAudioPCMBuffer(pcmFormat: bufferFormat, frameCapacity: AVAudioFrameCount(samples.count)) else {
            throw SpeechAnalyzerRecognizerError.noAudioFormat
        }
        buffer.frameLength = AVAudioFrameCount(samples.count)
        switch samples {
        case .int16(let values):
            if let channel = buffer.int16ChannelData?[0] {
                values.withUnsafeBufferPointer { channel.update(from: $0.baseAddress!, count: values.count) }
            }
        case .float32(let values):
            if let channel = buffer.floatChannelData?[0] {
                values.withUnsafeBufferPointer { channel.update(from: $0.baseAddress!, count: values.count) }
            }
        }
        input.yield(AnalyzerInput(buffer: buffer))
        return inbox.drain()
    }

    /// Waits for the analyzer to finalize everything (it cannot be abandoned part way): every
    /// event in the ending, none delivered.
    func finish(stopRequested: Bool, abandoning: () -> Bool, delivering: ([RecognitionEvent]) -> Void) throws -> RecognitionEnding {
        RecognitionEnding(events: try finishThroughEndOfInput())
    }

    private func finishThroughEndOfInput() throws -> [RecognitionEvent] {
        input.finish()
        let done = BlockingResult<Bool>()
        let analyzer = analyzer
        let resultsTask = resultsTask
        Task.detached(priority: .userInitiated) {
            do {
                try await analyzer.finalizeAndFinishThroughEndOfInput()
                await resultsTask.value
                done.finish(.success(true))
            } catch {
                done.finish(.failure(error))
            }
        }
        _ = try done.wait()
        try inbox.throwIfFailed()
        return inbox.drain()
    }
}

extension RecognitionEvent {
    /// A transcriber result as a core event: times in seconds from the start of the stream.
    /// (Not a static member of the recognizer: the results task must not capture its type.)
    fileprivate init(_ result: SpeechTranscriber.Result) {
        let text = String(result.text.characters)
        guard result.isFinal else { self = .interim(text); return }
        var words: [WordTiming] = []
        for run in result.text.runs {
            guard let range = run.audioTimeRange else { continue }
            let word = String(result.text[run.range].characters).trimmingCharacters(in: .whitespaces)
            guard !word.isEmpty else { continue }
            words.append(WordTiming(word: word, startSeconds: range.start.seconds, endSeconds: range.end.seconds))
        }
        self = .final(TranscriptSegment(
            text: text, startSeconds: result.range.start.seconds, endSeconds: result.range.end.seconds, words: words))
    }
}

/// Events from the results task, waiting for the engine's next call.
private final class EventInbox: Sendable {
    private struct State {
        var events: [RecognitionEvent] = []
        var failure: String?
    }

    private let state = Mutex(State())

    func append(_ event: RecognitionEvent) { state.withLock { $0.events.append(event) } }

    func fail(_ error: any Error) { state.withLock { $0.failure = String(describing: error) } }

    func drain() -> [RecognitionEvent] {
        state.withLock { state in
            defer { state.events.removeAll() }
            return state.events
        }
    }

    func throwIfFailed() throws {
        if let failure = state.withLock({ $0.failure }) { throw SpeechAnalyzerRecognizerError.failed(failure) }
    }
}

/// Why on-device speech recognition could not run.
enum SpeechAnalyzerRecognizerError: Error, CustomStringConvertible {
    case unavailable
    case unsupportedLanguage(String)
    case noAudioFormat
    case failed(String)

    var description: String {
        switch self {
        case .unavailable: "On-device speech recognition is not available on this device."
        case .unsupportedLanguage(let language): "On-device speech recognition does not support \(language)."
        case .noAudioFormat: "The speech analyzer offered no audio format."
        case .failed(let reason): "Speech recognition failed: \(reason)"
        }
    }
}
