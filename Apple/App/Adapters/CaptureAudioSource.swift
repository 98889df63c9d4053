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
final class CaptureAudioSource: AudioSource, Sendable {
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

    /// AVFoundation's capture objects, which are not `Sendable`: configured in `init`, then only
    /// stopped (and their observers removed) under the lock; samples arrive through `receiver`.
    private struct Capture {
        let session: AVCaptureSession
        let output: AVCaptureAudioDataOutput
        let receiver: SampleBufferReceiver
        let observers: [any NSObjectProtocol]
    }

    private let capture: Mutex<Capture>
    private let captureQueue = DispatchQueue(label: "app.livetranscriber.capture")
    private let buffer: FrameQueue
    private let events: EventRelay

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

        let session = AVCaptureSession()
        let output = AVCaptureAudioDataOutput()
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
        let buffer = FrameQueue()
        let events = EventRelay()
        self.buffer = buffer
        self.events = events
        let receiver = SampleBufferReceiver(buffer: buffer, channels: format.channels)
        output.setSampleBufferDelegate(receiver, queue: captureQueue)
        let observers = Self.observe(session, reportingTo: events)
        session.startRunning()
        capture = Mutex(Capture(session: session, output: output, receiver: receiver, observers: observers))
    }

    deinit {
        capture.withLock { $0.observers.forEach(NotificationCenter.default.removeObserver) }
    }

    func read(maxFrames: Int) throws -> LiveTranscriberCore.AudioBuffer? {
        buffer.take(maxFrames: maxFrames, channels: format.channels)
    }

    /// Stops capture; `read` returns what is left, then nil.
    func stop() {
        capture.withLock { $0.session.stopRunning() }
        buffer.close()
    }

    /// Observes interruptions and route changes; the blocks hold the relay, not the source.
    private static func observe(_ session: AVCaptureSession, reportingTo events: EventRelay) -> [any NSObjectProtocol] {
        let center = NotificationCenter.default
        let report: @Sendable (CaptureEvent) -> Void = { event in events.send(event) }
        return [
            center.addObserver(forName: AVCaptureSession.wasInterruptedNotification, object: session, queue: nil) { _ in
                report(.interruptionBegan)
            },
            center.addObserver(forName: AVCaptureSession.interruptionEndedNotification, object: session, queue: nil) { _ in
                report(.interruptionEnded)
            },
            center.addObserver(forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil) { notification in
                let raw = notification.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt
                report(captureEvent(routeChange: raw.flatMap(AVAudioSession.RouteChangeReason.init(rawValue:))))
            },
        ]
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

/// The capture output's delegate: converts each sample buffer on the capture queue and hands the
/// frames to the queue `read` takes them from.
private final class SampleBufferReceiver: NSObject, AVCaptureAudioDataOutputSampleBufferDelegate, Sendable {
    private let buffer: FrameQueue
    private let channels: Int

    init(buffer: FrameQueue, channels: Int) {
        self.buffer = buffer
        self.channels = channels
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
        buffer.append(Self.interleavedFloats(pcm, channels: channels))
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
