import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

/// Real speech and real models: whisper.cpp with Whisper base and Silero VAD as `make test` installs them.
/// The model is loaded once per process (`LinuxSpeechEngines.whisperEngine`).
@Suite("Speech recognition with whisper.cpp")
struct WhisperRecognitionTests {
    static func transcribe(_ source: any AudioSource) throws -> [TranscriptSegment] {
        try LocalTranscription.transcribe(source, recognizer: LinuxSpeechEngines.make(.whisper, language: "en-US"))
    }

    /// Mono float samples of a 16 kHz LibriVox file.
    static func librivoxSamples(_ id: String) throws -> [Float] {
        let reader = try SndFileReader(path: "\(TestData.librivox)/\(id).wav")
        #expect(reader.format == AudioFormat(sampleRate: 16_000, channels: 1))
        var samples: [Float] = []
        while let buffer = try reader.read(maxFrames: 16_000) { samples += buffer.samples }
        return samples
    }

    @Test("the installed models are found, so whisper is the default engine")
    func defaultEngine() {
        #expect(WhisperModelFiles.installed.areInstalled)
        #expect(LinuxSpeechEngines.installedDefaultKind() == .whisper)
    }

    @Test("goforward.raw gives 'go forward ten meters' (normalized) with word times from the start of the stream")
    func goForward() throws {
        let segments = try Self.transcribe(RawPCMReader(path: TestData.goForward, sampleRate: 16_000, channels: 1))
        let text = segments.map(\.text).joined(separator: " ")
        #expect(WordErrorRate.normalizedWords(text) == WordErrorRate.normalizedWords("go forward ten meters"), "\(text)")
        let segment = try #require(segments.first)
        #expect(segments.count == 1)
        #expect(segment.words.count == 4)
        // pocketsphinx puts "go" at 0.46 s and "meters" ending at 2.11 s; token times are coarser.
        #expect(abs(segment.startSeconds - 0.46) < 0.5, "starts at \(segment.startSeconds)")
        #expect(abs(segment.endSeconds - 2.11) < 0.5, "ends at \(segment.endSeconds)")
        #expect(segment.words.map(\.startSeconds) == segment.words.map(\.startSeconds).sorted())
    }

    @Test("the five librivox recordings reach a word error rate of at most 5%")
    func librivoxWordErrorRate() throws {
        var total = WordErrorRate(errors: 0, referenceWords: 0)
        for (id, reference) in try TestData.librivoxReferences() {
            let hypothesis = try Self.transcribe(SndFileReader(path: "\(TestData.librivox)/\(id).wav"))
                .map(\.text).joined(separator: " ")
            total = total + WordErrorRate.measure(reference: reference, hypothesis: hypothesis)
        }
        #expect(total.referenceWords == 71)
        #expect(total.rate <= 0.05, "word error rate \(total.rate)")
        print("whisper librivox word error rate: \(total.errors)/\(total.referenceWords) = \(total.rate)")
    }

    @Test("one hour of low noise and one minute of digital silence give no segment and no interim text")
    func noiseAndSilenceGiveNothing() throws {
        let recognizer = try LinuxSpeechEngines.make(.whisper, language: "en-US")
        var random = SplitMix64(seed: 10)
        var events: [RecognitionEvent] = []
        let block = recognizer.inputFormat.blockSamples * 16
        // Uniform noise at about -50 dBFS (a quiet room through a cheap microphone).
        for _ in 0..<(3_600 * 16_000 / block) {
            let noise = (0..<block).map { _ in Float(Int64(random.next() >> 53) - 512) / 512 * 0.005 }
            events += try recognizer.accept(.float32(noise))
        }
        for _ in 0..<(60 * 16_000 / block) {
            events += try recognizer.accept(.float32([Float](repeating: 0, count: block)))
        }
        events += try recognizer.finish()
        #expect(events.isEmpty, "\(events.prefix(3))")
    }

    @Test("40 s of speech without a pause is cut into segments of at most 15 s without losing words at the cuts")
    func longUtteranceIsCut() throws {
        // The five recordings twice, with every quiet 32 ms window taken out: about 40 s of unbroken speech.
        var speech: [Float] = []
        var reference: [String] = []
        for _ in 0..<2 {
            for (id, text) in try TestData.librivoxReferences() {
                let samples = try Self.librivoxSamples(id)
                for start in stride(from: 0, to: samples.count - 512, by: 512) {
                    let window = samples[start..<start + 512]
                    let energy = window.reduce(0) { $0 + $1 * $1 } / 512
                    if energy.squareRoot() > 0.01 { speech += window }
                }
                reference.append(text)
            }
        }
        #expect(speech.count > 38 * 16_000, "\(Double(speech.count) / 16_000) s")
        let source = MemorySource(samples: speech, format: AudioFormat(sampleRate: 16_000, channels: 1))
        let segments = try Self.transcribe(source)
        #expect(segments.count >= 3)
        for segment in segments {
            #expect(segment.durationSeconds <= 15, "\(segment.startSeconds)–\(segment.endSeconds): \(segment.text)")
        }
        let hypothesis = segments.map(\.text).joined(separator: " ")
        let rate = WordErrorRate.measure(reference: reference.joined(separator: " "), hypothesis: hypothesis)
        print("whisper 40 s unbroken speech: \(segments.count) segments, word error rate \(rate.errors)/\(rate.referenceWords)")
        #expect(rate.rate <= 0.1, "\(hypothesis)")
    }

    @Test("a live recognizer reports interim text before its finals, and its finals hold the words a file gives (a long sentence may be final in pieces)")
    func liveInterims() throws {
        let recognizer = try LinuxSpeechEngines.make(.whisper, language: "en-US", mode: .live)
        let path = "\(TestData.librivox)/sense_and_sensibility_01_austen_64kb-0870.wav"
        let samples = try Self.librivoxSamples("sense_and_sensibility_01_austen_64kb-0870")
        var events: [RecognitionEvent] = []
        let block = recognizer.inputFormat.blockSamples
        for start in stride(from: 0, to: samples.count, by: block) {
            events += try recognizer.accept(.float32(Array(samples[start..<min(samples.count, start + block)])))
            Thread.sleep(forTimeInterval: Double(block) / 16_000)  // real time
        }
        events += try recognizer.finish()
        let finals = events.compactMap { if case .final(let segment) = $0 { segment } else { nil } }
        #expect(finals.count >= 1)
        #expect(events.contains { if case .interim = $0 { true } else { false } })
        if case .final = events.last {} else { Issue.record("the last event is not a final") }
        // A final decodes the same audio with the same settings live (early or not) as from a file;
        // a piece of a long sentence made final by local agreement (two decodes agreeing, more speech
        // after it) has its words from an interim decode, which may read one word differently
        // (how many pieces depends on how fast the decodes ran).
        let file = try Self.transcribe(SndFileReader(path: path)).map(\.text).joined(separator: " ")
        let live = finals.map(\.text).joined(separator: " ")
        #expect(WordErrorRate.measure(reference: file, hypothesis: live).errors <= (finals.count > 1 ? 1 : 0), "\(live) ≠ \(file)")
    }

    @Test("a cancelled decode stops at whisper.cpp's next check, and the next decode still gives the same words")
    func cancelledDecode() throws {
        let decoder = try WhisperDecoder(engine: LinuxSpeechEngines.whisperEngine(), language: "en")
        let id = "sense_and_sensibility_01_austen_64kb-0870"  // 7.1 s
        let samples = try Self.librivoxSamples(id)
        let reference = try #require(try TestData.librivoxReferences().first { $0.id == id }).text
        func text(_ words: [WordTiming]) -> String { words.map(\.word).joined(separator: " ") }

        // Cancelled before it starts: whisper.cpp is not even asked.
        let early = DecodeCancellation()
        early.cancel()
        #expect(throws: CancellationError.self) { try decoder.decode(samples, maxTokens: 60, interim: true, cancellation: early) }
        #expect(decoder.abortChecks == 0)

        // A whole decode: one check before the encoder, one after it, one after each decoder step.
        let whole = try decoder.decode(samples, maxTokens: 60, interim: false, cancellation: DecodeCancellation())
        let wholeChecks = decoder.abortChecks
        #expect(wholeChecks > 20, "\(wholeChecks) checks")
        #expect(WordErrorRate.measure(reference: reference, hypothesis: text(whole)).errors <= 1, "\(text(whole))")

        // Cancelled from within its third check (the first decoder step): that check stops it.
        let midway = DecodeCancellation()
        decoder.observeAbortChecks { if $0 == wholeChecks + 3 { midway.cancel() } }
        #expect(throws: CancellationError.self) { try decoder.decode(samples, maxTokens: 60, interim: true, cancellation: midway) }
        decoder.observeAbortChecks(nil)
        #expect(decoder.abortChecks == wholeChecks + 3)

        // The same decoder and state afterwards: the same words as before.
        let after = try decoder.decode(samples, maxTokens: 60, interim: false, cancellation: DecodeCancellation())
        #expect(text(after) == text(whole))
        #expect(decoder.abortChecks == 2 * wholeChecks + 3)
    }

    @Test("a missing model names the file and how to install it; a damaged one says it cannot be loaded")
    func badModels() throws {
        var files = WhisperModelFiles.installed
        files.model = "/nonexistent/ggml-base.bin"
        #expect(throws: WhisperError.modelMissing(path: "/nonexistent/ggml-base.bin")) { try WhisperEngine(files: files) }
        let folder = try TestFolders.make("whisper-model")
        let damaged = folder.appendingPathComponent("ggml-damaged.bin")
        try Data("not a model".utf8).write(to: damaged)
        files.model = damaged.path
        #expect(throws: WhisperError.modelUnreadable(path: damaged.path)) { try WhisperEngine(files: files) }
        #expect(WhisperError.modelMissing(path: WhisperModelFiles.sourceTreeFolder + "/x").description.contains("make deps"))
        // A model the user named is theirs: the message names it and gives no advice about ours.
        #expect(throws: WhisperError.userModelUnusable(path: "/nonexistent/mine.bin", missing: true)) {
            try LinuxSpeechEngines.make(.whisper, language: "en", model: "/nonexistent/mine.bin")
        }
        #expect(throws: WhisperError.userModelUnusable(path: damaged.path, missing: false)) {
            try LinuxSpeechEngines.make(.whisper, language: "en", model: damaged.path)
        }
    }

    /// A copy of the first `bytes` bytes of an installed model file in `folder`.
    static func cut(_ path: String, to bytes: Int, in folder: URL) throws -> String {
        let copy = folder.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try (handle.readData(ofLength: bytes)).write(to: copy)
        return copy.path
    }

    @Test("a damaged or truncated model is refused as unreadable, never a crash: Whisper and VAD models alike")
    func damagedAndTruncatedModels() throws {
        let folder = try TestFolders.make("whisper-cut")
        let installed = WhisperModelFiles.installed
        // 1000 bytes: whisper.cpp throws std::out_of_range (map::at) from its loader.
        let damaged = try Self.cut(installed.model, to: 1000, in: folder)
        #expect(throws: WhisperError.modelUnreadable(path: damaged)) {
            try WhisperEngine(files: WhisperModelFiles(model: damaged, voiceActivityModel: installed.voiceActivityModel))
        }
        // 300,000 bytes: whisper.cpp alone loads it, with no weights.
        try FileManager.default.removeItem(atPath: damaged)
        let truncated = try Self.cut(installed.model, to: 300_000, in: folder)
        #expect(throws: WhisperError.modelUnreadable(path: truncated)) {
            try WhisperEngine(files: WhisperModelFiles(model: truncated, voiceActivityModel: installed.voiceActivityModel))
        }
        #expect(throws: WhisperError.userModelUnusable(path: truncated, missing: false)) {
            try LinuxSpeechEngines.make(.whisper, language: "en", model: truncated)
        }
        let vadSize = try #require(try FileManager.default.attributesOfItem(atPath: installed.voiceActivityModel)[.size] as? Int)
        for bytes in [1000, vadSize - 1000] {
            let vad = try Self.cut(installed.voiceActivityModel, to: bytes, in: folder)
            #expect(throws: WhisperError.modelUnreadable(path: vad)) { try SileroVoiceActivityDetector(path: vad) }
            #expect(throws: WhisperError.modelUnreadable(path: vad)) {
                try WhisperEngine(files: WhisperModelFiles(model: installed.model, voiceActivityModel: vad))
            }
        }
        #expect(WhisperError.modelUnreadable(path: "/m/ggml-base.bin").description
            == "the whisper model /m/ggml-base.bin cannot be loaded: it is damaged or truncated; "
            + "reinstall LiveTranscriber or put a good copy of ggml-base.bin in /m (or set LIVETRANSCRIBER_MODELS to a folder that holds it), or use --engine pocketsphinx")
        // The whole files still load.
        _ = try SileroVoiceActivityDetector(path: installed.voiceActivityModel)
    }

    @Test("a failed load frees what it loaded: a good model with a damaged VAD file, three times, leaves no model loaded")
    func failedLoadsFreeTheModel() throws {
        let folder = try TestFolders.make("whisper-leak")
        let installed = WhisperModelFiles.installed
        // A path of this test's own, so the count is not another test's.
        let model = folder.appendingPathComponent("ggml-base.bin").path
        try FileManager.default.createSymbolicLink(atPath: model, withDestinationPath: installed.model)
        let count = { WhisperEngine.loadedContexts.withLock { $0[model, default: 0] } }
        do {
            let engine = try WhisperEngine(files: WhisperModelFiles(model: model, voiceActivityModel: installed.voiceActivityModel))
            #expect(count() == 1)
            _ = engine
        }
        #expect(count() == 0)
        let vad = try Self.cut(installed.voiceActivityModel, to: 1000, in: folder)
        for _ in 0..<3 {
            #expect(throws: WhisperError.modelUnreadable(path: vad)) {
                try WhisperEngine(files: WhisperModelFiles(model: model, voiceActivityModel: vad))
            }
        }
        #expect(count() == 0)
    }

    /// A copy of `path` in `folder` with the first occurrence of `name` changed by one byte.
    static func renamingTensor(_ path: String, _ name: String, in folder: URL) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let range = try #require(bytes.range(of: Data(name.utf8)))
        bytes[range.lowerBound + 3] = UInt8(ascii: "X")
        let copy = folder.appendingPathComponent("renamed-" + URL(fileURLWithPath: path).lastPathComponent)
        try bytes.write(to: copy)
        return copy.path
    }

    // whisper.cpp frees nothing when it refuses a file after it has allocated the weights (a
    // tensor it does not know, a tensor missing at the end): 147 MB of Whisper base or 0.9 MB of
    // Silero leaked per attempt. These files are refused before whisper.cpp reads them; that no
    // memory is left behind is what AddressSanitizer's leak check proves (`make sanitize`).
    @Test("a model cut short at its last tensor, with a tensor renamed or with bytes after its end is refused as unreadable")
    func modelsWhisperWouldRefuseAfterAllocating() throws {
        let folder = try TestFolders.make("whisper-walk")
        let installed = WhisperModelFiles.installed
        let renamed = try Self.renamingTensor(installed.model, "decoder.blocks.3.mlp.0.bias", in: folder)
        #expect(throws: WhisperError.modelUnreadable(path: renamed)) {
            try WhisperEngine(files: WhisperModelFiles(model: renamed, voiceActivityModel: installed.voiceActivityModel))
        }
        // The same copy with its name put back but its last 5000 bytes gone (the last tensor's data).
        var bytes = try Data(contentsOf: URL(fileURLWithPath: installed.model))
        bytes.removeLast(5000)
        try bytes.write(to: URL(fileURLWithPath: renamed))
        #expect(throws: WhisperError.modelUnreadable(path: renamed)) {
            try WhisperEngine(files: WhisperModelFiles(model: renamed, voiceActivityModel: installed.voiceActivityModel))
        }
        let vadRenamed = try Self.renamingTensor(installed.voiceActivityModel, "_model.decoder.rnn.bias_ih", in: folder)
        var vadLonger = try Data(contentsOf: URL(fileURLWithPath: installed.voiceActivityModel))
        vadLonger.append(Data(count: 20))
        let vadExtra = folder.appendingPathComponent("extra-ggml-silero-vad.bin")
        try vadLonger.write(to: vadExtra)
        for vad in [vadRenamed, vadExtra.path] {
            #expect(throws: WhisperError.modelUnreadable(path: vad)) { try SileroVoiceActivityDetector(path: vad) }
            #expect(throws: WhisperError.modelUnreadable(path: vad)) {
                try WhisperEngine(files: WhisperModelFiles(model: installed.model, voiceActivityModel: vad))
            }
        }
    }

    @Test("a folder where a model file belongs is named a folder")
    func folderAsModel() throws {
        let folder = try TestFolders.make("whisper-folder")
        var files = WhisperModelFiles.installed
        files.model = folder.path
        #expect(throws: WhisperError.modelIsFolder(path: folder.path)) { try WhisperEngine(files: files) }
        #expect(throws: WhisperError.modelIsFolder(path: folder.path)) { try SileroVoiceActivityDetector(path: folder.path) }
        #expect(throws: WhisperError.modelIsFolder(path: folder.path)) {
            try LinuxSpeechEngines.make(.whisper, language: "en", model: folder.path)
        }
        #expect(WhisperError.modelIsFolder(path: "/m").description == "/m is a folder, not a whisper model file (a ggml .bin file)")
    }

    @Test("falling back to pocketsphinx names the missing model file, unless the user chose the engine")
    func fallbackNote() throws {
        let empty = WhisperModelFiles(model: "/empty/ggml-base.bin", voiceActivityModel: "/empty/ggml-silero-vad.bin")
        #expect(LinuxSpeechEngines.fallbackNote(environment: [:], files: empty)
            == "note: transcribing with pocketsphinx: the whisper model /empty/ggml-base.bin is not installed; "
            + "reinstall LiveTranscriber or put ggml-base.bin in /empty (or set LIVETRANSCRIBER_MODELS to a folder that holds it); or choose an engine with --engine")
        #expect(LinuxSpeechEngines.fallbackNote(environment: [LinuxSpeechEngines.engineVariable: "pocketsphinx"], files: empty) == nil)
        #expect(LinuxSpeechEngines.fallbackNote(environment: [:], files: .installed) == nil)
        let noVAD = WhisperModelFiles(model: WhisperModelFiles.installed.model, voiceActivityModel: "/empty/ggml-silero-vad.bin")
        #expect(LinuxSpeechEngines.fallbackNote(environment: [:], files: noVAD)
            == "note: transcribing with pocketsphinx: the voice activity detection model /empty/ggml-silero-vad.bin is not installed; "
            + "reinstall LiveTranscriber or put ggml-silero-vad.bin in /empty (or set LIVETRANSCRIBER_MODELS to a folder that holds it); or choose an engine with --engine")
    }

    @Test("model messages name the voice activity detection model, and advise `make deps` only for the source tree's models folder")
    func modelMessages() {
        let source = WhisperModelFiles.sourceTreeFolder
        #expect(WhisperError.modelMissing(path: source + "/ggml-silero-vad.bin").description
            == "the voice activity detection model is missing at \(source)/ggml-silero-vad.bin; run `make deps` to install it, or use --engine pocketsphinx")
        #expect(WhisperError.modelUnreadable(path: source + "/ggml-base.bin").description
            == "the whisper model \(source)/ggml-base.bin cannot be loaded: it is damaged or truncated; run `make deps` to reinstall it, or use --engine pocketsphinx")
        #expect(WhisperError.modelMissing(path: "/usr/share/livetranscriber/models/ggml-silero-vad.bin").description
            == "the voice activity detection model is missing at /usr/share/livetranscriber/models/ggml-silero-vad.bin; "
            + "reinstall LiveTranscriber or put ggml-silero-vad.bin in /usr/share/livetranscriber/models "
            + "(or set LIVETRANSCRIBER_MODELS to a folder that holds it), or use --engine pocketsphinx")
        #expect(WhisperError.modelUnreadable(path: "/m/ggml-base.bin").description
            == "the whisper model /m/ggml-base.bin cannot be loaded: it is damaged or truncated; "
            + "reinstall LiveTranscriber or put a good copy of ggml-base.bin in /m "
            + "(or set LIVETRANSCRIBER_MODELS to a folder that holds it), or use --engine pocketsphinx")
        #expect(WhisperError.modelUnopenable(path: "/m/ggml-silero-vad.bin").description
            == "the voice activity detection model /m/ggml-silero-vad.bin cannot be opened for reading (check its permissions)")
        #expect(WhisperError.modelIsFolder(path: "/m/ggml-silero-vad.bin").description
            == "/m/ggml-silero-vad.bin is a folder, not a voice activity detection model file (a ggml .bin file)")
    }

    @Test("languages: a BCP 47 tag picks Whisper's code; an unknown one is refused")
    func languages() throws {
        let engine = try LinuxSpeechEngines.whisperEngine()
        #expect(engine.isMultilingual)
        #expect(try engine.whisperLanguage(for: "en-US") == "en")
        #expect(try engine.whisperLanguage(for: "de") == "de")
        #expect(throws: WhisperError.languageUnsupported(language: "xx-YY", model: "ggml-base.bin")) {
            try engine.whisperLanguage(for: "xx-YY")
        }
        #expect(throws: RecognizerError.unsupported("pocketsphinx knows only US English (en-US), not 'de'")) {
            try LinuxSpeechEngines.make(.pocketsphinx, language: "de")
        }
    }

    @Test("sounds that are not words are dropped", arguments: [
        ("[BLANK_AUDIO]", true), ("(music)", true), ("*laughs*", true), ("♪", true), ("-", true), ("meters.", false), ("10", false),
    ])
    func annotations(word: String, dropped: Bool) {
        #expect(WhisperDecoder.isAnnotation(word) == dropped)
    }
}

