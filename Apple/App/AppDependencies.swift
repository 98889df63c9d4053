import Foundation
import LiveTranscriberCore
import LiveTranscriberStore

/// The one place the app builds its adapters (the composition root). Screens and models get
/// core protocols from here and never construct a store, an engine or a framework client.
struct AppDependencies {
    /// The only source of time.
    var clock: any WallClock
    /// UIKit's feedback generators.
    var hapticPlayer: any HapticPlayer
    /// ActivityKit.
    var activity: any ActivityClient
    /// Opens the library in `folder`: the store and a way to make recording runners over it.
    var openLibrary: (URL) throws -> OpenedLibrary
    /// Apple Intelligence's on-device model when it can answer now, else nil (the app then
    /// summarizes with the core's offline `ExtractiveSummarizer`).
    var languageModel: () -> (any LanguageModel)?
    /// How the core's OpenAI clients send a request (URLSession).
    var httpTransport: any HTTPTransport
    /// Cuts a long recording into upload pieces where the core's `UploadPlan` says (AVAudioFile).
    var makeAudioSlicer: () -> any AudioSlicer
    /// The OpenAI API key in the Keychain.
    var keychain: KeychainItem
    /// Where the library lives: the iCloud Drive ubiquity container when `iCloud` is on and
    /// available, else the app's Documents folder.
    var libraryFolder: (_ iCloud: Bool) -> URL

    /// The adapters of a real device.
    static func live() -> AppDependencies {
        let activity = ActivityKitClient()
        return AppDependencies(
            clock: SystemClock(),
            hapticPlayer: UIKitHapticPlayer(),
            activity: activity,
            openLibrary: { folder in
                // The same store and library format as on Linux (docs/library.md); it creates the
                // folder on first use and rebuilds its index from the recording folders it finds.
                OpenedLibrary.wrapping(
                    try LibraryStore(directory: folder, audioMeasure: AVAudioFileMeasure()), activity: activity, clock: SystemClock())
            },
            languageModel: { FoundationLanguageModel.isAvailable ? FoundationLanguageModel() : nil },
            httpTransport: URLSessionHTTPTransport(),
            makeAudioSlicer: { AVAudioFileSlicer() },
            keychain: KeychainItem(service: "app.livetranscriber", account: "openai-api-key"),
            libraryFolder: LibraryFolders.folder(iCloud:)
        )
    }

    /// Ends the Live Activities a crashed session left, as the core's housekeeping plans it for a
    /// start-up with nothing recording.
    func endLeftoverActivities() {
        let plan = ActivityHousekeeping.plan(
            existing: activity.existingActivities(), currentRecordingID: nil, now: clock.now())
        for id in plan.activitiesToEnd {
            activity.end(activityID: id, content: nil, dismissalPolicy: .immediate, timestamp: clock.now())
        }
    }
}

/// A library that is open: its recordings for the screens, and recording runners that save into it.
struct OpenedLibrary {
    let library: any RecordingLibrary
    let makeRunner: @MainActor (RecordingRequest) throws -> any RecordingRunning

    /// Wraps a store that keeps both saved recordings and drafts (`LibraryStore`).
    static func wrapping<Store: RecordingLibrary & RecordingDraftStore & SendableMetatype>(
        _ store: Store, activity: any ActivityClient, clock: any WallClock
    ) -> OpenedLibrary {
        OpenedLibrary(library: store) { request in
            try RecordingRunner(store: store, request: request, activity: activity, clock: clock)
        }
    }
}

/// The library's folder on this device.
enum LibraryFolders {
    /// The ubiquity container's Documents/Library when iCloud is on and signed in, else the
    /// app's Documents/Library (shown in the Files app and in Finder's file sharing, so a library
    /// folder can be copied between a Linux machine and the iPhone as it is). Files are the truth
    /// and the index is rebuilt from whatever arrives, so only the folder moves to iCloud, never
    /// an index.
    static func folder(iCloud: Bool) -> URL {
        if iCloud, let container = FileManager.default.url(forUbiquityContainerIdentifier: nil) {
            return container.appending(path: "Documents/Library", directoryHint: .isDirectory)
        }
        return URL.documentsDirectory.appending(path: "Library", directoryHint: .isDirectory)
    }

    /// True when iCloud Drive is signed in and the app's container is reachable.
    static var isICloudAvailable: Bool {
        FileManager.default.ubiquityIdentityToken != nil
    }
}
