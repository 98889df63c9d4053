import AVFoundation
import Foundation
import LiveTranscriberCore
import Synchronization

/// The core's `AudioSource` over `AVCaptureSession`: the built-in microphone in stereo
/// (`multichannelAudioMode = .stereo`), delivered as interleaved float frames. Stereo is kept for
/// the file; the core's pipeline downmixes the same frames to mono for the recognizer.
///
/// Capture pushes sample buffers on its own queue; the engine pulls with `read(maxFrames:)`, which
/// waits for audio on the engine's thread. Interruptions and route changes are reported as the
/// core's `CaptureEvent`s through `onEvent`; what they do to the recording is
/// `CaptureInterruptionPolicy`'s decision, not this adapter's.
final class CaptureAudioSource: NSObject, AudioSource, AVCaptureAudioDataOutputSampleBufferDelegate, @unchecked Sendable {
    // @unchecked: `session` and `output` are configured in `start` before capture begins and
    // then only used by AVFoundation on `captureQueue`; everything else shared is in `buffer`.

    let format: AudioFormat
    let totalFrames: Int? = nil

    /// True when the input runs in stereo mode; false when the route (a headset, Bluetooth) only
    /// gives mono.
    let isStereo: Bool

    /// Called with each interruption or route change, on an arbitrary queue.
    var onEvent: (@Sendable (CaptureEvent) -> Void)? {
        get { events.handler }
        set { events.handler = newValue }
    }

    private let session: AVCaptureSession
    private let output = AVCaptureAudioDataOutput()
    private let captureQueue = DispatchQueue(label: "app.livetranscriber.capture")
    private let buffer = FrameQueue()
    private let events = EventRelay()
    private var observers: [any NSObjectProtocol] = []

    /// Opens the microphone and starts capture.
    /// - Throws: `CaptureAudioSourceError` when there is no microphone or the session refuses it.
    init(preferredSampleRate: Double = 48_000) throws {
        let audioSession = AVAudioSession.sharedInstance()
        try audioSession.setCategory(.playAndRecord, mode: .default, options: [.defaultToSpeaker, .allowBluetoothHFP])
        try audioSession.setPreferredSampleRate(preferredSampleRate)
        try audioSession.setActive(true)

        guard let device = AVCaptureDevice.default(.microphone, for: .audio, position: .unspecified) else {
            throw CaptureAudioSourceError.noMicrophone
        }
        let input = try AVCaptureDeviceInput(device: device)
        isStereo = input.isMultichannelAudioModeSupported(.stereo)
        if isStereo { input.multichannelAudioMode = .stereo }

        session = AVCaptureSession()
        session.automaticallyConfiguresApplicationAudioSession = false
        session.beginConfiguration()
        guard session.canAddInput(input), session.canAddOutput(output) else {
            session.commitConfiguration()
            throw CaptureAudioSourceError.refused
        }
        session.addInput(input)
        session.addOutput(output)
        session.commitConfiguration()
        format = AudioFormat(sampleRate: Int(audioSession.sampleRate.rounded()), channels: isStereo ? 2 : 1)
        super.init()
        output.setSampleBufferDelegate(self, queue: captureQueue)
        observe()
        session.startRunning()
    }

    deinit {
        observers.forEach(NotificationCenter.default.removeObserver)
    }

    func read(maxFrames: Int) throws -> LiveTranscriberCore.AudioBuffer? {
        buffer.take(maxFrames: maxFrames, channels: format.channels)
    }

    /// Stops capture; `read` returns what is left, then nil.
    func stop() {
        session.stopRunning()
        buffer.close()
    }

    func captureOutput(
        _ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection
    ) {
        guard let description = sampleBuffer.formatDescription,
              let pcm = AVAudioPCMBuffer(
                  pcmFormat: AVAudioFormat(cmAudioFormatDescription: description),
                  frameCapacity: AVAudioFrameCount(sampleBuffer.numSamples))
        else { return }
        pcm.frameLength = pcm.frameCapacity
        guard CMSampleBufferCopyPCMDataIntoAudioBufferList(
            sampleBuffer, at: 0, frameCount: Int32(sampleBuffer.numSamples), into: pcm.mutableAudioBufferList) == noErr
        else { return }
        buffer.append(Self.interleavedFloats(pcm, channels: format.channels))
    }

    /// The buffer's frames as interleaved floats with `channels` channels (a mono route feeding a
    /// stereo file repeats its channel; extra channels are dropped).
    private static func interleavedFloats(_ pcm: AVAudioPCMBuffer, channels: Int) -> [Float] {
        let frames = Int(pcm.frameLength)
        let sourceChannels = Int(pcm.format.channelCount)
        let interleaved = pcm.format.isInterleaved
        let stride = pcm.stride
        var samples = [Float](repeating: 0, count: frames * channels)
        func value(_ frame: Int, _ channel: Int) -> Float {
            let c = min(channel, sourceChannels - 1)
            if let data = pcm.floatChannelData {
                return interleaved ? data[0][frame * stride + c] : data[c][frame]
            }
            if let data = pcm.int16ChannelData {
                let raw = interleaved ? data[0][frame * stride + c] : data[c][frame]
                return Float(raw) / 32768
            }
            if let data = pcm.int32ChannelData {
                let raw = interleaved ? data[0][frame * stride + c] : data[c][frame]
                return Float(raw) / 2_147_483_648
            }
            return 0
        }
        for frame in 0..<frames {
            for channel in 0..<channels { samples[frame * channels + channel] = value(frame, channel) }
        }
        return samples
    }

    private func observe() {
        let center = NotificationCenter.default
        // The notification blocks share the relay (a reference), not the capture source.
        let report: @Sendable (CaptureEvent) -> Void = { [events] event in events.send(event) }
        observers.append(center.addObserver(
            forName: AVCaptureSession.wasInterruptedNotification, object: session, queue: nil) { _ in
            report(.interruptionBegan)
        })
        observers.append(center.addObserver(
            forName: AVCaptureSession.interruptionEndedNotification, object: session, queue: nil) { _ in
            report(.interruptionEnded)
        })
        observers.append(center.addObserver(
            forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) { notification in
            let raw = notification.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt
            report(Self.captureEvent(routeChange: raw.flatMap(AVAudioSession.RouteChangeReason.init(rawValue:))))
        })
    }

    /// An audio route change in the core's words.
    static func captureEvent(routeChange reason: AVAudioSession.RouteChangeReason?) -> CaptureEvent {
        switch reason {
        case .oldDeviceUnavailable: .inputDeviceLost
        case .newDeviceAvailable: .inputDeviceAdded
        default: .otherRouteChange
        }
    }
}

/// The current `onEvent` handler, shared by the notification blocks, which may run on any queue.
private final class EventRelay: Sendable {
    private let current = Mutex<(@Sendable (CaptureEvent) -> Void)?>(nil)

    var handler: (@Sendable (CaptureEvent) -> Void)? {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// Calls the handler, if any, outside the lock.
    func send(_ event: CaptureEvent) { handler?(event) }
}

/// Interleaved samples between the capture queue and the engine's thread.
private final class FrameQueue: Sendable {
    private struct State {
        var samples: [Float] = []
        var closed = false
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    func append(_ samples: [Float]) {
        state.withLock { $0.samples.append(contentsOf: samples) }
        available.signal()
    }

    func close() {
        state.withLock { $0.closed = true }
        available.signal()
    }

    /// Up to `maxFrames` frames; waits while there are none; nil once closed and empty.
    func take(maxFrames: Int, channels: Int) -> LiveTranscriberCore.AudioBuffer? {
        while true {
            let taken: [Float]? = state.withLock { state in
                let count = min(state.samples.count / channels, maxFrames) * channels
                if count > 0 {
                    defer { state.samples.removeFirst(count) }
                    return Array(state.samples.prefix(count))
                }
                return state.closed ? [] : nil
            }
            if let taken { return taken.isEmpty ? nil : LiveTranscriberCore.AudioBuffer(samples: taken, channels: channels) }
            available.wait()
        }
    }
}

/// Why the microphone could not be opened.
enum CaptureAudioSourceError: Error, CustomStringConvertible {
    case noMicrophone
    case refused

    var description: String {
        switch self {
        case .noMicrophone: "This device has no microphone LiveTranscriber can use."
        case .refused: "The system refused the microphone; another app may be using it."
        }
    }
}
