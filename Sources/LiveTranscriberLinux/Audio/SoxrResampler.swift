import CSoxr
import Foundation
import LiveTranscriberCore

/// Converts a float stream (mono, or interleaved channels) between sample rates with libsoxr (high quality).
///
/// Call `flush()` once at the end: the filter holds back some output, and only the flush
/// makes the total exact (10.000 s at 48 kHz gives 160,000 frames at 16 kHz).
public final class SoxrResampler: Resampler {
    private let handle: soxr_t
    private let ratio: Double
    private let channels: Int

    /// - Parameters:
    ///   - inputRate: Hz of the samples passed to `process`.
    ///   - outputRate: Hz of the samples returned.
    ///   - channels: interleaved channels in and out, 1 by default.
    /// - Throws: `AudioFileError.resampleFailed` with libsoxr's message.
    public init(inputRate: Int, outputRate: Int, channels: Int = 1) throws {
        var error: soxr_error_t?
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        let created = soxr_create(Double(inputRate), Double(outputRate), UInt32(channels), &error, &io, &quality, nil)
        guard let handle = created, error == nil else {
            // A failed initializer runs no deinit: a handle returned with an error is freed here.
            if let created { soxr_delete(created) }
            throw AudioFileError.resampleFailed(reason: error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        self.handle = handle
        self.ratio = Double(outputRate) / Double(inputRate)
        self.channels = channels
    }

    deinit { soxr_delete(handle) }

    public func process(_ samples: [Float]) throws -> [Float] {
        try run(samples)
    }

    public func flush() throws -> [Float] {
        var output: [Float] = []
        while true {
            let block = try run(nil)
            if block.isEmpty { return output }
            output += block
        }
    }

    private func run(_ input: [Float]?) throws -> [Float] {
        let inputFrames = (input?.count ?? 0) / channels
        let capacity = Int((Double(inputFrames) * ratio).rounded(.up)) + 1024
        var output = [Float](repeating: 0, count: capacity * channels)
        var produced = 0
        let error: soxr_error_t? = output.withUnsafeMutableBufferPointer { out in
            if let input {
                return input.withUnsafeBufferPointer { inBuffer in
                    soxr_process(handle, inBuffer.baseAddress, inputFrames, nil, out.baseAddress, capacity, &produced)
                }
            }
            return soxr_process(handle, nil, 0, nil, out.baseAddress, capacity, &produced)
        }
        if let error { throw AudioFileError.resampleFailed(reason: String(cString: error)) }
        output.removeSubrange(produced * channels..<output.count)
        return output
    }
}
