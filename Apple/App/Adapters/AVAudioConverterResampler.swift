import AVFoundation
import LiveTranscriberCore
import Synchronization

/// The core's `Resampler` over `AVAudioConverter`: one mono float stream from the capture rate to
/// the recognizer's rate (the role libsoxr has on Linux).
final class AVAudioConverterResampler: Resampler {
    private let converter: AVAudioConverter
    private let inputFormat: AVAudioFormat
    private let outputFormat: AVAudioFormat
    private let ratio: Double

    /// - Throws: `ResamplerError.unsupported` when the rates cannot be converted.
    init(fromRate: Int, toRate: Int) throws {
        guard let input = AVAudioFormat(standardFormatWithSampleRate: Double(fromRate), channels: 1),
              let output = AVAudioFormat(standardFormatWithSampleRate: Double(toRate), channels: 1),
              let converter = AVAudioConverter(from: input, to: output)
        else { throw ResamplerError.unsupported(fromRate: fromRate, toRate: toRate) }
        inputFormat = input
        outputFormat = output
        self.converter = converter
        ratio = Double(toRate) / Double(fromRate)
    }

    func process(_ samples: [Float]) throws -> [Float] {
        try convert(samples, endOfStream: false)
    }

    func flush() throws -> [Float] {
        try convert([], endOfStream: true)
    }

    private func convert(_ samples: [Float], endOfStream: Bool) throws -> [Float] {
        var input: AVAudioPCMBuffer?
        if !samples.isEmpty {
            guard let buffer = AVAudioPCMBuffer(pcmFormat: inputFormat, frameCapacity: AVAudioFrameCount(samples.count)) else {
                throw ResamplerError.failed("no input buffer")
            }
            buffer.frameLength = buffer.frameCapacity
            samples.withUnsafeBufferPointer { buffer.floatChannelData![0].update(from: $0.baseAddress!, count: samples.count) }
            input = buffer
        }
        let pending = PendingInput(input)
        let capacity = AVAudioFrameCount(Double(samples.count) * ratio) + 1024
        guard let output = AVAudioPCMBuffer(pcmFormat: outputFormat, frameCapacity: capacity) else {
            throw ResamplerError.failed("no output buffer")
        }
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, inputStatus in
            if let buffer = pending.take() {
                inputStatus.pointee = .haveData
                return buffer
            }
            inputStatus.pointee = endOfStream ? .endOfStream : .noDataNow
            return nil
        }
        if status == .error { throw ResamplerError.failed(error?.localizedDescription ?? "conversion failed") }
        return Array(UnsafeBufferPointer(start: output.floatChannelData![0], count: Int(output.frameLength)))
    }
}

/// The one input buffer of a `convert` call, handed to the converter's input block, whose type
/// is `@Sendable`. The converter calls the block inside `convert`, so the lock is never
/// contended; it is what lets the buffer cross into the block without an unchecked promise.
private final class PendingInput: Sendable {
    private let buffer: Mutex<AVAudioPCMBuffer?>

    /// Takes `input` over; the caller does not touch it again.
    init(_ input: sending AVAudioPCMBuffer?) { buffer = Mutex(input) }

    /// The buffer, once; nil afterwards.
    func take() -> sending AVAudioPCMBuffer? { buffer.withLock { $0.take() } }
}

/// Why resampling failed.
enum ResamplerError: Error, CustomStringConvertible {
    case unsupported(fromRate: Int, toRate: Int)
    case failed(String)

    var description: String {
        switch self {
        case .unsupported(let from, let to): "Cannot resample from \(from) Hz to \(to) Hz."
        case .failed(let reason): "Resampling failed: \(reason)"
        }
    }
}
