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
    /// Opens the library at `location`: the store and a way to make recording runners over it.
    var openLibrary: @MainActor (LibraryLocation) throws -> OpenedLibrary
    /// Apple Intelligence's on-device model when it can answer now, else nil (the app then
    /// summarizes with the core's offline `ExtractiveSummarizer`). Called on the summary's own
    /// background thread, which then owns the model it returns.
    var languageModel: @Sendable () -> (any LanguageModel)?
    /// How the core's OpenAI clients send a request (URLSession).
    var httpTransport: any HTTPTransport
    /// Cuts a long recording into upload pieces where the core's `UploadPlan` says (AVAudioFile).
    /// Called on the re-transcription's own background thread, which then owns the slicer.
    var makeAudioSlicer: @Sendable () -> any AudioSlicer
    /// The OpenAI API key in the Keychain.
    var keychain: KeychainItem
    /// Where the library lives: its recordings in the iCloud Drive ubiquity container when
    /// `iCloud` is on and available, else all of it in the app's Documents folder.
    var libraryLocation: (_ iCloud: Bool) -> LibraryLocation

    /// The adapters of a real device.
    static func live() -> AppDependencies {
        let activity = ActivityKitClient()
        return AppDependencies(
            clock: SystemClock(),
            hapticPlayer: UIKitHapticPlayer(),
            activity: activity,
            openLibrary: { location in
                // The same store and library format as on Linux (docs/library.md); it creates the
                // folder on first use and rebuilds its index from the recording folders it finds.
                guard let shared = location.sharedRecordings else {
                    return try OpenedLibrary.opening(activity: activity, clock: SystemClock()) {
                        try LibraryStore(directory: location.directory, audioMeasure: AVAudioFileMeasure())
                    }
                }
                // iCloud Drive: coordinated file access, and a metadata query that reindexes what arrives.
                let watcher = ICloudLibraryWatcher(root: shared.deletingLastPathComponent(), clock: SystemClock()) {
                    try LibraryStore(directory: location.directory, audioMeasure: AVAudioFileMeasure(),
                                     fileCoordinator: NSFileCoordinatorFiles(onWrite: { _ in }), recordingsFolder: shared)
                }
                let files = NSFileCoordinatorFiles(onWrite: { [weak watcher] url in
                    Task { @MainActor in watcher?.noteOwnWrite(url) }
                })
                var opened = try OpenedLibrary.opening(activity: activity, clock: SystemClock()) {
                    try LibraryStore(directory: location.directory, audioMeasure: AVAudioFileMeasure(), fileCoordinator: files,
                                     recordingsFolder: shared)
                }
                opened.watcher = watcher
                return opened
            },
            languageModel: { FoundationLanguageModel.isAvailable ? FoundationLanguageModel() : nil },
            httpTransport: URLSessionHTTPTransport(),
            makeAudioSlicer: { AVAudioFileSlicer() },
            keychain: KeychainItem(service: "app.livetranscriber", account: "openai-api-key"),
            libraryLocation: LibraryFolders.location(iCloud:)
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

/// A library that is open: its recordings for the screens, and a way to open the same library
/// again for work off the main actor.
///
/// Who owns which store: `LibraryStore` is not `Sendable` (one instance per thread; the library's
/// write lock and generation keep instances in step, docs/library.md), so no store ever crosses
/// an actor. The main actor owns `library`, which the screens read and change. Everything else
/// gets a store of its own from `openStore`, a `Sendable` function: each recording runner (the
/// store is sent into it, and its engine uses it under the runner's lock), each summary and
/// re-transcription (opened and used on its own background thread), the iCloud watcher's
/// refreshes (on its own queue).
struct OpenedLibrary {
    /// The main actor's store.
    let library: any RecordingLibrary
    /// Opens another store over the same library, for one piece of work off the main actor.
    let openStore: @Sendable () throws -> any RecordingLibrary
    /// Makes a runner that records into a store of its own. The request (the source, the
    /// recognizer) is sent: the runner owns it from then on.
    let makeRunner: @MainActor (sending RecordingRequest) throws -> any RecordingRunning
    /// Keeps the index in step with what iCloud Drive brings; nil for a library on the device.
    var watcher: ICloudLibraryWatcher?

    /// Opens the main actor's store with `open`, and keeps `open` for the other owners.
    /// - Throws: whatever `open` throws (the library cannot be opened).
    static func opening<Store: RecordingLibrary & RecordingDraftStore & SendableMetatype>(
        activity: any ActivityClient, clock: any WallClock, _ open: @escaping @Sendable () throws -> Store
    ) throws -> OpenedLibrary {
        OpenedLibrary(
            library: try open(),
            openStore: { try open() },
            makeRunner: { request in
                try RecordingRunner(store: try open(), request: request, activity: activity, clock: clock)
            })
    }
}

/// Where one library lives.
struct LibraryLocation {
    /// The store's data directory: index, its lock and generation, drafts and trash.
    var directory: URL
    /// The recordings folder in iCloud Drive when the library is synced there; nil for
    /// `directory/recordings`.
    var sharedRecordings: URL?
}

/// The library's folders on this device.
enum LibraryFolders {
    /// On the device: everything in `folder(iCloud: false)`. With iCloud Drive: the recordings in
    /// the ubiquity container's `Documents/Library/recordings` (the Linux layout, so the folder can
    /// be copied to a computer as it is), the index, drafts and trash in Application Support on
    /// this iPhone: no index or draft being written is ever uploaded, and each device builds its
    /// own index from the recordings that arrive.
    static func location(iCloud: Bool) -> LibraryLocation {
        let shared = folder(iCloud: iCloud)
        guard shared != folder(iCloud: false) else { return LibraryLocation(directory: shared) }
        return LibraryLocation(directory: URL.applicationSupportDirectory.appending(path: "iCloudLibrary", directoryHint: .isDirectory),
                               sharedRecordings: shared.appending(path: LibraryLayout.recordings, directoryHint: .isDirectory))
    }

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
