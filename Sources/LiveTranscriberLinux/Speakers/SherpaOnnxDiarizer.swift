import CSherpaOnnx
import Foundation
import LiveTranscriberCore
import Synchronization

/// Where the two speaker models live (ONNX files, as scripts/install-speakers.sh converts them):
/// in the folder the Whisper models are in (`WhisperModelFiles.installedFolder`).
public struct SpeakerModelFiles: Sendable, Hashable {
    /// pyannote segmentation-3.0, with the metadata sherpa-onnx reads.
    public var segmentation: String
    /// CAM++ (3D-Speaker) speaker embeddings, 192 values per stretch.
    public var embedding: String

    public init(segmentation: String, embedding: String) {
        self.segmentation = segmentation
        self.embedding = embedding
    }

    public static let segmentationFileName = "speaker-segmentation.onnx"
    public static let embeddingFileName = "speaker-embedding.onnx"

    /// The installed pair: `<models folder>/speaker-segmentation.onnx` and `speaker-embedding.onnx`.
    public static var installed: SpeakerModelFiles {
        let folder = WhisperModelFiles.installedFolder
        return SpeakerModelFiles(segmentation: folder + "/" + segmentationFileName, embedding: folder + "/" + embeddingFileName)
    }

    /// The first file that is absent, nil when both are there.
    public var missingFile: String? {
        [segmentation, embedding].first { !FileManager.default.fileExists(atPath: $0) }
    }
}

/// Offline speaker diarization with sherpa-onnx (`SpeakerDiarizer`): pyannote segmentation-3.0
/// finds where voices speak in 10 s windows, CAM++ embeds each stretch, and clustering groups the
/// stretches into voices (a known number with `speakerCount`, else by `clusteringThreshold`).
///
/// Reads the whole file into memory as 16 kHz mono floats (libsndfile and libsoxr, as the
/// transcription does): 3.84 MB per minute of audio. Decodes on `threads` threads.
public struct SherpaOnnxDiarizer: SpeakerDiarizer {
    public var models: SpeakerModelFiles
    /// Inference threads for each model.
    public var threads: Int
    /// Asked before the audio is read and before the models run; true stops with `TranscriptionCancelled`.
    public var isCancelled: @Sendable () -> Bool

    /// The cosine-distance threshold at which two stretches are different voices, when the number
    /// of voices is not given (docs/models.md, "Speaker labels").
    public static let clusteringThreshold: Float = 0.8
    /// How far the 10 s segmentation window moves each step, as a share of it: half a window.
    /// sherpa-onnx's default (0.1) costs 4 times the CPU and, given the number of voices, spends
    /// one on an outlier more often (docs/models.md, "Speaker labels").
    public static let windowShift: Float = 0.5
    /// Seconds: shorter stretches of speech are dropped, shorter pauses of a voice are bridged.
    public static let shortestSpeechSeconds: Float = 0.3
    public static let shortestPauseSeconds: Float = 0.5
    /// The models' sample rate (Hz).
    public static let sampleRate = 16_000

    public init(models: SpeakerModelFiles = .installed, threads: Int = 2, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        self.models = models
        self.threads = threads
        self.isCancelled = isCancelled
    }

    /// - Throws: `SpeakerModelsMissing` when a model is absent or cannot be loaded;
    ///   `AudioFileError` for audio that cannot be read; `TranscriptionCancelled`.
    public func turns(in audio: URL, speakerCount: Int?) throws -> [SpeakerTurn] {
        if let missing = models.missingFile { throw SpeakerModelsMissing(reason: "no speaker model at \(missing)") }
        if isCancelled() { throw TranscriptionCancelled() }
        let samples = try Self.monoSamples(of: audio)
        if isCancelled() { throw TranscriptionCancelled() }
        // pyannote needs at least one window of audio; shorter audio holds at most one voice.
        guard samples.count >= Self.sampleRate / 2 else { return [] }
        return try models.segmentation.withCString { segmentation in
            try models.embedding.withCString { embedding in
                try "cpu".withCString { provider in
                    var config = SherpaOnnxOfflineSpeakerDiarizationConfig()
                    config.segmentation.pyannote.model = segmentation
                    config.segmentation.pyannote.window_shift_ratio = Self.windowShift
                    config.segmentation.num_threads = Int32(threads)
                    config.segmentation.provider = provider
                    config.embedding.model = embedding
                    config.embedding.num_threads = Int32(threads)
                    config.embedding.provider = provider
                    config.clustering.num_clusters = Int32(speakerCount ?? 0)
                    config.clustering.threshold = Self.clusteringThreshold
                    config.min_duration_on = Self.shortestSpeechSeconds
                    config.min_duration_off = Self.shortestPauseSeconds
                    guard let diarizer = StderrSilence.around({ SherpaOnnxCreateOfflineSpeakerDiarization(&config) }) else {
                        throw SpeakerModelsMissing(reason: "the speaker models in \(URL(fileURLWithPath: models.segmentation).deletingLastPathComponent().path) cannot be loaded (damaged?)")
                    }
                    defer { SherpaOnnxDestroyOfflineSpeakerDiarization(diarizer) }
                    guard let result = samples.withUnsafeBufferPointer({
                        SherpaOnnxOfflineSpeakerDiarizationProcess(diarizer, $0.baseAddress, Int32($0.count))
                    }) else { return [] }
                    defer { SherpaOnnxOfflineSpeakerDiarizationDestroyResult(result) }
                    let count = Int(SherpaOnnxOfflineSpeakerDiarizationResultGetNumSegments(result))
                    guard count > 0, let segments = SherpaOnnxOfflineSpeakerDiarizationResultSortByStartTime(result) else { return [] }
                    defer { SherpaOnnxOfflineSpeakerDiarizationDestroySegment(segments) }
                    return (0..<count).map { index in
                        SpeakerTurn(startSeconds: Double(segments[index].start), endSeconds: Double(segments[index].end),
                                    speaker: Int(segments[index].speaker))
                    }
                }
            }
        }
    }

    /// The file's audio as 16 kHz mono floats in -1…1.
    static func monoSamples(of audio: URL) throws -> [Float] {
        let source = try AudioFileReader.open(path: audio.path)
        let resampler = source.format.sampleRate == sampleRate ? nil : try SoxrResampler(inputRate: source.format.sampleRate, outputRate: sampleRate)
        var samples: [Float] = []
        if let frames = source.totalFrames { samples.reserveCapacity(frames * sampleRate / max(1, source.format.sampleRate) + 1) }
        while let buffer = try source.read(maxFrames: 65_536) {
            let mono = AudioMath.downmixToMono(buffer)
            samples += try resampler?.process(mono) ?? mono
        }
        if let resampler { samples += try resampler.flush() }
        return samples
    }
}

/// sherpa-onnx prints why a model failed to load on stderr, where it would break the line a
/// command draws there: file descriptor 2 points at /dev/null while a diarizer is made (the
/// failure is reported in our own words instead). One at a time in the process.
enum StderrSilence {
    private static let lock = Mutex(())

    static func around<T>(_ body: () -> T) -> T {
        lock.withLock { _ in
            fflush(nil)
            let saved = dup(2)
            let null = open("/dev/null", O_WRONLY)
            if saved >= 0, null >= 0 { dup2(null, 2) }
            defer {
                fflush(nil)
                if saved >= 0 { dup2(saved, 2); close(saved) }
                if null >= 0 { close(null) }
            }
            return body()
        }
    }
}
