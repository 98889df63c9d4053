import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing
@testable import LiveTranscriberLinux

@Suite("Recording engine: the save sheet's location")
struct RecordingEngineLocationTests {
    /// Records goforward.raw (real speech, real pocketsphinx, real library) and saves it with
    /// `location`, the engine started with `settingsLocation`.
    func record(settingsLocation: RecordingLocation?, saveLocation: RecordingLocation?) throws -> Recording {
        let folder = try TestFolders.make("engine-location")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LibraryStore(directory: folder, timeZone: TimeZone(identifier: "UTC")!)
        let services = LinuxRecordingServices.make(
            store: store, activity: JSONLinesActivityClient { _ in }, clock: ManualClock())
        let source = try RawPCMReader(path: TestData.goForward, sampleRate: 16_000, channels: 1)
        let engine = RecordingEngine(
            sourceFormat: source.format, settings: RecordingEngineSettings(language: "en-US", location: settingsLocation),
            services: services)
        try engine.start()
        while let buffer = try source.read(maxFrames: 1_600) { try engine.receive(buffer) }
        try engine.stop()
        guard case .saved(let recording, _) = try engine.finish(keep: true, location: saveLocation) else {
            Issue.record("not saved")
            return try store.resolve("latest")
        }
        #expect(try store.resolve(recording.id).location == recording.location)
        return recording
    }

    @Test("a location chosen in the save sheet is saved with the recording")
    func chosenAtSave() throws {
        let paris = RecordingLocation(latitude: 48.8566, longitude: 2.3522)
        #expect(try record(settingsLocation: nil, saveLocation: paris).location == paris)
    }

    @Test("without one, the location given up front is kept; with neither, there is none")
    func givenUpFront() throws {
        let oslo = RecordingLocation(latitude: 59.9139, longitude: 10.7522)
        #expect(try record(settingsLocation: oslo, saveLocation: nil).location == oslo)
        #expect(try record(settingsLocation: nil, saveLocation: nil).location == nil)
    }
}
