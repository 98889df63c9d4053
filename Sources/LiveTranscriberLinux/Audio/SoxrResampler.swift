import CSoxr
import Foundation
import LiveTranscriberCore

/// Converts one mono float stream between sample rates with libsoxr (high quality).
///
/// Call `flush()` once at the end: the filter holds back some output, and only the flush
/// makes the total exact (10.000 s at 48 kHz gives 160,000 frames at 16 kHz).
public final class SoxrResampler: Resampler {
    private let handle: soxr_t
    private let ratio: Double

    /// - Parameters:
    ///   - inputRate: Hz of the samples passed to `process`.
    ///   - outputRate: Hz of the samples returned.
    /// - Throws: `AudioFileError.resampleFailed` with libsoxr's message.
    public init(inputRate: Int, outputRate: Int) throws {
        var error: soxr_error_t?
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        guard let handle = soxr_create(Double(inputRate), Double(outputRate), 1, &error, &io, &quality, nil), error == nil else {
            throw AudioFileError.resampleFailed(reason: error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        self.handle = handle
        self.ratio = Double(outputRate) / Double(inputRate)
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
        let capacity = Int((Double(input?.count ?? 0) * ratio).rounded(.up)) + 1024
        var output = [Float](repeating: 0, count: capacity)
        var produced = 0
        let error: soxr_error_t? = output.withUnsafeMutableBufferPointer { out in
            if let input {
                return input.withUnsafeBufferPointer { inBuffer in
                    soxr_process(handle, inBuffer.baseAddress, inBuffer.count, nil, out.baseAddress, capacity, &produced)
                }
            }
            return soxr_process(handle, nil, 0, nil, out.baseAddress, capacity, &produced)
        }
        if let error { throw AudioFileError.resampleFailed(reason: String(cString: error)) }
        output.removeSubrange(produced..<output.count)
        return output
    }
}
