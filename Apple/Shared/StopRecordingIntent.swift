import AppIntents
import LiveTranscriberCore

/// The Live Activity's stop button: stops and saves the recording the activity shows.
///
/// A `LiveActivityIntent` runs in the app's process (the system wakes the app if needed), so the
/// stop reaches the recording engine even from a locked screen. It goes through the same single
/// entry point as the `livetranscriber://stop-recording` link, so it obeys the same rule: a stop
/// for an older recording never stops a newer one (`LiveTranscriberDeepLink.matches`).
/// Compiled into both the app and the widget extension, as ActivityKit requires.
struct StopRecordingIntent: LiveActivityIntent {
    // Titles come from the main bundle: App Intents metadata extraction rejects other bundles.
    static let title: LocalizedStringResource = "Stop Recording"
    static let description = IntentDescription("Stops the recording and saves it to the library.")
    static let isDiscoverable = false

    /// The recording the activity was started for (`RecordingActivityAttributes.recordingID`).
    @Parameter(title: "Recording")
    var recordingID: String

    init() {}

    init(recordingID: String) {
        self.recordingID = recordingID
    }

    func perform() async throws -> some IntentResult {
        // An empty id (never sent by the widget) stops whichever recording runs, as the bare link does.
        await DeepLinkInbox.shared.deliver(.stopRecording(session: recordingID.isEmpty ? nil : recordingID))
        return .result()
    }
}
