// Benchmarks that need the library's Swift API rather than the command line (`make bench` runs
// them through scripts/bench.py). Not shipped: a tool for measuring.
//
//   livetranscriber-bench search-library DIR [RECORDINGS] [HOURS]
//       generates RECORDINGS recordings holding HOURS of transcript text in DIR (folders written
//       directly, then `reindex`), then times searches and list pages in process and prints one
//       JSON object, with the queries so scripts/bench.py can time the same ones through the CLI.
//   livetranscriber-bench transcribe ENGINE FILE...
//       transcribes each file as fast as possible (finals only, as `import` does) with whisper or
//       pocketsphinx; prints the texts, the word error rate against the LibriVox transcription
//       when the files are LibriVox's, and the longest segment, as JSON.
//   livetranscriber-bench whisper-full FILE...
//       whisper.cpp's own `whisper_full` on each whole file (no VAD, no pipeline): the bare engine.
//   livetranscriber-bench simulate FILE REFERENCE_TEXT_FILE [--fixed-pause] [--language TAG|auto]
//                                 [--first-interim SECONDS] [--interim-interval SECONDS]
//       live whisper recognition of FILE in simulated time: the audio clock moves with the audio, and
//       each decode takes, in that clock, the thread CPU time it really took (one idle core, whatever
//       else the machine runs). Prints, as JSON, final latency per sentence (final shown minus the
//       segment's last word's end) and per word, interim latency per word (first shown minus its
//       end), the finals, CPU seconds per audio second and the word error rate against the reference.
//       --first-interim and --interim-interval replace `PartialDecodeSchedule`'s defaults (to try others).
//   livetranscriber-bench vad FILE
//       Silero VAD's speech probabilities of FILE, heard directly and level-normalized, as digit strings.
//   livetranscriber-bench identify FILE...
//       Whisper's three most probable languages of each whole file, as heard and leveled for decoding.
//   livetranscriber-bench live ENGINE FILE
//       feeds FILE in real time to a live recognizer and prints, as JSON, the delay from the end of
//       each final segment's audio to its arrival (seconds), the number of interims and the longest segment.
import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux
import LiveTranscriberTestSupport

/// The most frequent English words, most frequent first: about half of all words spoken.
let commonWords = """
    the of and to a in that it is was i for on you he be with as by at have are this not but had his they from she \
    which or we an there her were one do been all their has would will what if can when so no said who more about up \
    them some could him into its then two time my out like did only me your now other may just over also new any \
    these people very know see first way well because even good much our how where after get back should work year
    """.split(whereSeparator: { $0.isWhitespace || $0 == "\\" }).map(String.init)

/// Words of the pocketsphinx dictionary (about 134,000), for the long tail.
func vocabulary() throws -> [String] {
    let text = try String(contentsOfFile: "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict", encoding: .utf8)
    var words: [String] = []
    for line in text.split(separator: "\n") {
        guard let word = line.split(separator: " ").first, !word.contains("(") else { continue }
        words.append(String(word))
    }
    return words
}

/// CPU time this thread has used, in milliseconds: what a query costs, whatever else the machine runs.
func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

func generate(into directory: URL, recordings: Int, hours: Double) throws -> (segments: Int, bytes: Int) {
    var random = SplitMix64(seed: 42)
    let words = try vocabulary()
    let cjk = Array("我们今天讨论项目进度会议记录悬空引用数据模型测试结果下周计划")
    let secondsPerRecording = hours * 3600 / Double(recordings)
    let encoder = JSONEncoder.liveTranscriber
    let start = Date(timeIntervalSince1970: 1_700_000_000)
    var segmentCount = 0
    var textBytes = 0
    for index in 0..<recordings {
        let id = String(format: "20231114-%06d-%04x", index, index & 0xFFFF)
        let folder = directory.appendingPathComponent("recordings/\(id)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var segments: [TranscriptSegment] = []
        var time = 0.0
        let chinese = index % 20 == 0  // one recording in twenty is in Chinese
        while time < secondsPerRecording {
            let length = Double.random(in: 3...9, using: &random)
            let text: String
            if chinese {
                text = String((0..<Int(length * 4)).map { _ in cjk.randomElement(using: &random)! })
            } else {
                // About 2.5 words a second: half from the common words with a Zipf-like skew
                // (a cubed uniform draw favours the first), half from the whole dictionary.
                text = (0..<Int(length * 2.5)).map { _ in
                    let u = Double.random(in: 0..<1, using: &random)
                    if Bool.random(using: &random) { return commonWords[Int(u * u * u * Double(commonWords.count))] }
                    return words[Int(u * Double(words.count))]
                }.joined(separator: " ")
            }
            segments.append(TranscriptSegment(text: text, startSeconds: time, endSeconds: time + length))
            textBytes += text.utf8.count
            time += length + 0.5
        }
        segmentCount += segments.count
        let recording = Recording(
            id: id, name: "Generated \(index)", createdAt: start.addingTimeInterval(Double(index) * 600),
            durationSeconds: time, language: chinese ? "zh-CN" : "en-US", tags: index % 7 == 0 ? ["weekly"] : [],
            audio: AudioDescription(format: "wav", sampleRate: 16_000, channels: 1))
        try encoder.encode(recording).write(to: folder.appendingPathComponent("metadata.json"))
        try encoder.encode(segments).write(to: folder.appendingPathComponent("transcript.json"))
    }
    return (segmentCount, textBytes)
}

func searchLibrary(_ arguments: [String]) throws {
    guard let path = arguments.first else { throw BenchError.usage }
    let recordings = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
    let hours = arguments.count > 2 ? Double(arguments[2]) ?? 1_000 : 1_000
    let directory = URL(fileURLWithPath: path, isDirectory: true)
    let clock = ContinuousClock()
    var generated = (segments: 0, bytes: 0)
    // `--reuse`: time the searches on a library generated by an earlier run (no generation, no reindex).
    let reuse = arguments.contains("--reuse")
    let generating = try clock.measure { if !reuse { generated = try generate(into: directory, recordings: recordings, hours: hours) } }
    let store = try LibraryStore(directory: directory)
    let indexing = try clock.measure { if !reuse { _ = try store.reindex() } }
    let queries: [(String, [String])] = [
        ("common word", ["the", "and", "of", "to", "a"]),
        ("rarer word", ["meeting", "budget", "river", "engine", "garden"]),
        ("two words", ["project plan", "red house", "new york", "good morning", "next week"]),
        ("no match", ["zzzzqx", "qwertyuiopz", "xylophonequartz", "nonexistentword", "flurbish"]),
        ("CJK substring", ["悬空", "会议记录", "数据", "进度", "测"]),
        ("tricky input", ["multi-agent", "don't", "AT&T", "20.04", "\""]),
        ("typing (prefix)", ["meet", "budg", "riv", "engi", "the gard"]),
    ]
    var results: [[String: Any]] = []
    var all: [Double] = []
    for (label, texts) in queries {
        var times: [Double] = []
        var cpu: [Double] = []
        var hits = 0
        for round in 0..<20 {
            for text in texts {
                var found: [SearchResult] = []
                let cpuStart = threadCPUMilliseconds()
                let elapsed = try clock.measure { found = try store.search(SearchRequest(text, limit: 20)) }
                cpu.append(threadCPUMilliseconds() - cpuStart)
                if round == 0 { hits += found.count }
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
            }
        }
        all += times
        results.append(["kind": label, "queries": texts.map { "`\($0)`" }.joined(separator: ", "), "texts": texts, "hits": hits,
                        "p50_ms": percentile(times, 0.5), "p95_ms": percentile(times, 0.95),
                        "cpu_p50_ms": percentile(cpu, 0.5), "cpu_p95_ms": percentile(cpu, 0.95)])
    }
    var lists: [[String: Any]] = []
    for (label, request) in [("list --limit 50", ListRequest(limit: 50)), ("list --tag weekly --limit 50", ListRequest(tag: "weekly", limit: 50))] {
        var times: [Double] = []
        var cpu: [Double] = []
        var count = 0
        for _ in 0..<100 {
            let cpuStart = threadCPUMilliseconds()
            let elapsed = try clock.measure { count = try store.list(request).count }
            cpu.append(threadCPUMilliseconds() - cpuStart)
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        lists.append(["kind": label, "hits": count, "p50_ms": percentile(times, 0.5), "p95_ms": percentile(times, 0.95),
                      "cpu_p50_ms": percentile(cpu, 0.5), "cpu_p95_ms": percentile(cpu, 0.95)])
    }
    let report: [String: Any] = [
        "recordings": recordings, "hours": hours, "segments": generated.segments, "text_mb": Double(generated.bytes) / 1e6,
        "generate_s": Double(generating.components.seconds), "reindex_s": Double(indexing.components.seconds),
        "p50_ms": percentile(all, 0.5), "p95_ms": percentile(all, 0.95), "kinds": results, "lists": lists,
        "index_mb": Double(store.indexSize()) / 1e6,
    ]
    let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

enum BenchError: Error { case usage }

func monoSamples(_ path: String) throws -> (samples: [Float], rate: Int) {
    let reader = try SndFileReader(path: path)
    var samples: [Float] = []
    while let buffer = try reader.read(maxFrames: 16_000) { samples += AudioMath.downmixToMono(buffer) }
    return (samples, reader.format.sampleRate)
}

/// The reference text of a LibriVox test file, nil for other files.
func librivoxReference(_ path: String) throws -> String? {
    let folder = (path as NSString).deletingLastPathComponent
    let id = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    guard let text = try? String(contentsOfFile: folder + "/transcription", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasSuffix("(\(id))") {
        return String(line.dropLast(id.count + 2)).replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
    }
    return nil
}

func printJSON(_ object: [String: Any]) throws {
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

func transcribeFiles(_ arguments: [String]) throws {
    guard arguments.count >= 2 else { throw BenchError.usage }
    let kind = try SpeechEngineKind.named(arguments[0])
    var total = WordErrorRate(errors: 0, referenceWords: 0)
    var texts: [String] = []
    var longest = 0.0
    var segmentCount = 0
    var details: [[String: Any]] = []
    for path in arguments.dropFirst() {
        let recognizer = try LinuxSpeechEngines.make(kind, language: "en-US")
        let segments = try LocalTranscription.transcribe(SndFileReader(path: path), recognizer: recognizer)
        let text = segments.map(\.text).joined(separator: " ")
        texts.append(text)
        for segment in segments {
            details.append(["file": path, "start": segment.startSeconds, "end": segment.endSeconds, "text": segment.text,
                            "words": segment.words.map { [$0.word, $0.startSeconds, $0.endSeconds] as [Any] }])
        }
        segmentCount += segments.count
        longest = max(longest, segments.map(\.durationSeconds).max() ?? 0)
        if let reference = try librivoxReference(path) {
            total = total + WordErrorRate.measure(reference: reference, hypothesis: text)
        }
    }
    try printJSON(["texts": texts, "segments": segmentCount, "longest_segment_s": longest, "detail": details,
                   "errors": total.errors, "reference_words": total.referenceWords])
}

func whisperFull(_ arguments: [String]) throws {
    guard !arguments.isEmpty else { throw BenchError.usage }
    let engine = try LinuxSpeechEngines.whisperEngine()
    var total = WordErrorRate(errors: 0, referenceWords: 0)
    var texts: [String] = []
    for path in arguments {
        let (samples, rate) = try monoSamples(path)
        guard rate == 16_000 else { throw BenchError.usage }
        let text = try engine.transcribeWhole(samples)
        texts.append(text)
        if let reference = try librivoxReference(path) {
            total = total + WordErrorRate.measure(reference: reference, hypothesis: text)
        }
    }
    try printJSON(["texts": texts, "errors": total.errors, "reference_words": total.referenceWords])
}

func live(_ arguments: [String]) throws {
    guard arguments.count == 2 else { throw BenchError.usage }
    let kind = try SpeechEngineKind.named(arguments[0])
    let source = try SndFileReader(path: arguments[1])
    let pipeline = try LocalTranscription.makePipeline(
        for: source.format, recognizer: LinuxSpeechEngines.make(kind, language: "en-US", mode: .live))
    let block = source.format.sampleRate / 10
    let started = Date()
    var read = 0
    var delays: [Double] = []
    var interims = 0
    var longest = 0.0
    func note(_ events: [RecognitionEvent]) {
        let now = Date().timeIntervalSince(started)
        for event in events {
            switch event {
            case .interim: interims += 1
            case .final(let segment):
                delays.append(now - segment.endSeconds)
                longest = max(longest, segment.durationSeconds)
            }
        }
    }
    while let buffer = try source.read(maxFrames: block) {
        read += buffer.frameCount
        let due = Double(read) / Double(source.format.sampleRate)
        let wait = due - Date().timeIntervalSince(started)
        if wait > 0 { Thread.sleep(forTimeInterval: wait) }
        note(try pipeline.process(buffer))
    }
    note(try pipeline.finish())
    try printJSON(["finals": delays.count, "interims": interims, "delay_median_s": delays.isEmpty ? 0 : percentile(delays, 0.5),
                   "delay_max_s": delays.max() ?? 0, "longest_segment_s": longest])
}

/// Process CPU time (user + system), seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Wraps a decoder so each decode ends, in the simulated clock, its CPU time after it started:
/// the decode runs at once on the worker thread, then waits for the feeder to release it.
final class SimulatedDecoder: UtteranceDecoder, @unchecked Sendable {
    let inner: any UtteranceDecoder
    let clock: ManualClock
    private let condition = NSCondition()
    private var waiting: (releaseAt: Double, interim: Bool, audioEnd: Double)?
    private var released = false
    private var busyUntil = 0.0
    var autoRelease = false
    /// Finished decodes, in order: sim time released, audio end (the sim time it started) and kind.
    private(set) var log: [(releaseAt: Double, audioEnd: Double, interim: Bool)] = []

    init(_ inner: any UtteranceDecoder, clock: ManualClock) {
        self.inner = inner
        self.clock = clock
    }

    func simNow() -> Double { clock.now().timeIntervalSince1970 }

    func decode(_ samples: [Float], maxTokens: Int, interim: Bool, cancellation: DecodeCancellation) throws -> [WordTiming] {
        if cancellation.isCancelled { throw CancellationError() }
        return try simulated(interim: interim) {
            try inner.decode(samples, maxTokens: maxTokens, interim: interim, cancellation: cancellation)
        }
    }

    /// The language identification takes its CPU time in the simulated clock too (it runs first, once).
    var identifiesLanguages: Bool { inner.identifiesLanguages }
    func identifyLanguage(_ samples: [Float]) throws -> LanguageGuess? {
        try simulated(interim: false) {
            let cpu = threadCPUMilliseconds()
            defer { condition.withLock { identificationCPUSeconds += (threadCPUMilliseconds() - cpu) / 1000 } }
            return try inner.identifyLanguage(samples)
        }
    }
    func useLanguage(_ language: String) { inner.useLanguage(language) }
    /// Thread CPU seconds the language identification took.
    private(set) var identificationCPUSeconds = 0.0

    /// Runs `body` at once, then holds its result until the feeder releases it at its simulated end.
    private func simulated<T>(interim: Bool, _ body: () throws -> T) throws -> T {
        let submitted = simNow()
        let cpu = threadCPUMilliseconds()
        let result = Result { try body() }
        let spent = (threadCPUMilliseconds() - cpu) / 1000
        condition.lock()
        let start = max(submitted, busyUntil)
        busyUntil = start + spent
        waiting = (start + spent, interim, submitted)
        condition.broadcast()
        while !released && !autoRelease { condition.wait() }
        released = false
        log.append((start + spent, submitted, interim))
        waiting = nil
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }

    /// The release time of the decode that has finished computing, nil while none has.
    func pendingRelease() -> Double? { condition.withLock { waiting?.releaseAt } }

    /// Lets the waiting decode return and waits until it has.
    func release() {
        condition.lock()
        released = true
        condition.broadcast()
        while waiting != nil { condition.wait() }
        condition.unlock()
    }
}

func simulate(_ arguments: [String]) throws {
    // --language auto: the language identified on the first speech and locked, as `record` does by default.
    var arguments = arguments
    func option(_ name: String) -> String? {
        guard let flag = arguments.firstIndex(of: name), flag + 1 < arguments.count else { return nil }
        defer { arguments.removeSubrange(flag...(flag + 1)) }
        return arguments[flag + 1]
    }
    let language = option("--language") ?? "en-US"
    var schedule = PartialDecodeSchedule()
    if let value = option("--first-interim") {
        guard let seconds = Double(value) else { throw BenchError.usage }
        schedule.minimumUtteranceSeconds = seconds
    }
    if let value = option("--interim-interval") {
        guard let seconds = Double(value) else { throw BenchError.usage }
        schedule.intervalSeconds = seconds
    }
    guard arguments.count == 2 || (arguments.count == 3 && arguments[2] == "--fixed-pause") else { throw BenchError.usage }
    // --fixed-pause: the endpointing before issue 20, a 0.5 s pause whatever the utterance's length.
    var settings = VoiceActivitySettings()
    if arguments.count == 3 { settings.shortestEndSilenceSeconds = settings.endSilenceSeconds }
    let (samples, rate) = try monoSamples(arguments[0])
    guard rate == 16_000 else { throw BenchError.usage }
    let reference = try String(contentsOfFile: arguments[1], encoding: .utf8)
    let engine = try LinuxSpeechEngines.whisperEngine()
    let clock = ManualClock(start: Date(timeIntervalSince1970: 0))
    let decoder = SimulatedDecoder(try engine.makeDecoder(), clock: clock)
    let recognizer = UtteranceRecognizer(
        language: language, sampleRate: 16_000, detector: LevelNormalizedDetector(try SileroVoiceActivityDetector(path: WhisperModelFiles.installed.voiceActivityModel), sampleRate: 16_000),
        decoder: decoder, worker: BackgroundDecodeWorker(), clock: clock, interims: true, settings: settings, schedule: schedule)
    let audio = samples + [Float](repeating: 0, count: 3 * 16_000)  // 3 s of silence after the speech: every final comes
    let cpuStart = processCPUSeconds()
    var finals: [(at: Double, segment: TranscriptSegment)] = []
    var interims: [(at: Double, audioEnd: Double, text: String)] = []
    var lastAudioEnd = 0.0
    func note(_ events: [RecognitionEvent], at time: Double) {
        for event in events {
            switch event {
            case .final(let segment): finals.append((time, segment))
            case .interim(let text): interims.append((time, lastAudioEnd, text))
            }
        }
    }
    let block = 512
    for start in stride(from: 0, to: audio.count, by: block) {
        let now = Double(min(audio.count, start + block)) / 16_000
        clock.set(Date(timeIntervalSince1970: now))
        note(try recognizer.accept(.float32(Array(audio[start..<min(audio.count, start + block)]))), at: now)
        // Sim time stands still while a decode computes; a computed one returns once its time has come.
        while recognizer.decodeInFlight {
            if let releaseAt = decoder.pendingRelease() {
                guard releaseAt <= now else { break }
                decoder.release()
                lastAudioEnd = decoder.log.last?.audioEnd ?? 0
                usleep(300)  // the worker hands the result over just after the decode returns
                note(try recognizer.accept(.float32([])), at: max(releaseAt, now - Double(block) / 16_000))
            } else {
                usleep(200)
            }
        }
    }
    decoder.autoRelease = true
    decoder.release()
    note(try recognizer.finish(), at: Double(audio.count) / 16_000)
    let cpu = processCPUSeconds() - cpuStart
    let sentenceDelays = finals.map { $0.at - $0.segment.endSeconds }
    var wordDelays: [Double] = []
    var interimDelays: [Double] = []
    for (at, segment) in finals {
        for word in segment.words {
            wordDelays.append(at - word.endSeconds)
            // First shown: the first interim whose decoded audio reached past the word's end, or the final.
            let shown = interims.first { $0.audioEnd >= word.endSeconds && $0.at >= word.endSeconds }?.at ?? at
            interimDelays.append(min(shown, at) - word.endSeconds)
        }
    }
    let text = finals.map(\.segment.text).joined(separator: " ")
    let wer = WordErrorRate.measure(reference: reference, hypothesis: text)
    // whisper.cpp's own decode of the whole file with the same model (after the CPU was measured).
    let whole = try engine.transcribeWhole(samples)
    let wholeWER = WordErrorRate.measure(reference: reference, hypothesis: whole)
    func stats(_ values: [Double]) -> [String: Double] {
        values.isEmpty ? [:] : ["median": percentile(values, 0.5), "p90": percentile(values, 0.9), "max": values.max() ?? 0]
    }
    try printJSON([
        "language": recognizer.language, "identification_cpu_s": decoder.identificationCPUSeconds,
        "first_final_latency": finals.first.map { $0.at - $0.segment.endSeconds } ?? -1, "first_final_at": finals.first?.at ?? -1,
        "audio_s": Double(samples.count) / 16_000,
        "finals": finals.map { ["at": $0.at, "start": $0.segment.startSeconds, "end": $0.segment.endSeconds, "text": $0.segment.text] },
        "interims": interims.count, "interim_texts": interims.map { ["at": $0.at, "text": $0.text] },
        "sentence_latency": stats(sentenceDelays), "word_latency": stats(wordDelays),
        "interim_word_latency": stats(interimDelays), "cpu_s_per_audio_s": cpu / (Double(samples.count) / 16_000),
        "errors": wer.errors, "reference_words": wer.referenceWords, "text": text,
        "whole_file_errors": wholeWER.errors, "whole_file_text": whole,
        "decodes": decoder.log.map { ["started": $0.audioEnd, "done": $0.releaseAt, "interim": $0.interim] },
    ])
}

/// `vad FILE`: Silero's speech probability per 32 ms window of FILE (16 kHz), as a string of digits
/// 0 to 9 (probability times 9, rounded), as heard directly and through `LevelNormalizedDetector`.
func voiceActivity(_ arguments: [String]) throws {
    guard arguments.count == 1 else { throw BenchError.usage }
    let (samples, rate) = try monoSamples(arguments[0])
    guard rate == 16_000 else { throw BenchError.usage }
    let whole = Array(samples.prefix(samples.count / 512 * 512))
    let path = WhisperModelFiles.installed.voiceActivityModel
    let raw = try SileroVoiceActivityDetector(path: path).speechProbabilities(whole)
    let normalized = try LevelNormalizedDetector(SileroVoiceActivityDetector(path: path), sampleRate: rate).speechProbabilities(whole)
    func digits(_ values: [Float]) -> String { values.map { String(Int(($0 * 9).rounded())) }.joined() }
    try printJSON(["raw": digits(raw), "normalized": digits(normalized)])
}

/// `identify FILE...`: Whisper's three most probable languages for each whole file, as heard and
/// raised to an ordinary level (`SpeechLevelNormalizer.leveledForDecoding`).
func identify(_ arguments: [String]) throws {
    guard !arguments.isEmpty else { throw BenchError.usage }
    let decoder = try LinuxSpeechEngines.whisperEngine().makeDecoder()
    var rows: [[String: String]] = []
    for path in arguments {
        let (samples, rate) = try monoSamples(path)
        guard rate == 16_000 else { throw BenchError.usage }
        func top(_ audio: [Float]) throws -> String {
            let guess = try decoder.identifyLanguage(audio)
            return (guess?.probabilities ?? [:]).sorted { $0.value > $1.value }.prefix(3)
                .map { "\($0.key) \(Int(($0.value * 100).rounded()))%" }.joined(separator: ", ")
        }
        rows.append(["file": path, "raw": try top(samples),
                     "leveled": try top(SpeechLevelNormalizer.leveledForDecoding(samples, windowSamples: 512))])
    }
    try printJSON(["files": rows])
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "search-library": try searchLibrary(Array(arguments.dropFirst()))
    case "transcribe": try transcribeFiles(Array(arguments.dropFirst()))
    case "whisper-full": try whisperFull(Array(arguments.dropFirst()))
    case "live": try live(Array(arguments.dropFirst()))
    case "simulate": try simulate(Array(arguments.dropFirst()))
    case "vad": try voiceActivity(Array(arguments.dropFirst()))
    case "identify": try identify(Array(arguments.dropFirst()))
    default: throw BenchError.usage
    }
} catch BenchError.usage {
    FileHandle.standardError.write(Data("""
        usage: livetranscriber-bench search-library DIR [RECORDINGS] [HOURS]
               livetranscriber-bench transcribe whisper|pocketsphinx FILE...
               livetranscriber-bench whisper-full FILE...
               livetranscriber-bench live whisper|pocketsphinx FILE
               livetranscriber-bench simulate FILE REFERENCE_TEXT_FILE [--fixed-pause] [--language TAG|auto]
               livetranscriber-bench vad FILE
               livetranscriber-bench identify FILE...

        """.utf8))
    exit(64)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
