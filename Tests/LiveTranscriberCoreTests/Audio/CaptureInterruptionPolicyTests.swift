import LiveTranscriberCore
import Testing

@Suite("Capture interruptions")
struct CaptureInterruptionPolicyTests {
    @Test("losing or swapping the microphone pauses a recording; nothing resumes it by itself", arguments: [
        (CaptureEvent.interruptionBegan, CaptureInterruptionPolicy.Decision.pause),
        (.inputDeviceLost, .pause),
        (.inputDeviceAdded, .pause),
        (.interruptionEnded, .none),
        (.otherRouteChange, .none),
    ])
    func whileRecording(event: CaptureEvent, decision: CaptureInterruptionPolicy.Decision) {
        #expect(CaptureInterruptionPolicy.decide(event, phase: .recording) == decision)
    }

    @Test("only a recording that is capturing is paused", arguments: RecordingSession.Phase.allCases)
    func otherPhases(phase: RecordingSession.Phase) {
        let expected: CaptureInterruptionPolicy.Decision = phase == .recording ? .pause : .none
        #expect(CaptureInterruptionPolicy.decide(.interruptionBegan, phase: phase) == expected)
        #expect(CaptureInterruptionPolicy.decide(.interruptionEnded, phase: phase) == .none)
    }
}
