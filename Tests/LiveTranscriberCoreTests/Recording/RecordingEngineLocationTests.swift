import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

@Suite("Recording engine: the save sheet's location")
struct RecordingEngineLocationTests {
    static let paris = RecordingLocation(latitude: 48.8566, longitude: 2.3522)
    static let oslo = RecordingLocation(latitude: 59.9139, longitude: 10.7522)

    /// Records two seconds with `settingsLocation` given up front and saves with `saveLocation`.
    func saved(settingsLocation: RecordingLocation?, saveLocation: RecordingLocation?) throws -> Recording? {
        let harness = RecordingEngineTests.Harness(
            recognizer: ScriptedRecognizer(cues: RecordingEngineTests.script),
            settings: RecordingEngineSettings(language: "en-US", location: settingsLocation))
        try harness.engine.start()
        try harness.feed(seconds: 2)
        try harness.engine.stop()
        guard case .saved(let recording, _) = try harness.engine.finish(keep: true, location: saveLocation) else {
            return nil
        }
        #expect(try harness.store.resolve(recording.id).location == recording.location)
        return recording
    }

    @Test("a location chosen in the save sheet is saved with the recording")
    func chosenAtSave() throws {
        #expect(try saved(settingsLocation: nil, saveLocation: Self.paris)?.location == Self.paris)
        #expect(try saved(settingsLocation: Self.oslo, saveLocation: Self.paris)?.location == Self.paris)
    }

    @Test("without one, the location given up front is kept; with neither, there is none")
    func givenUpFront() throws {
        #expect(try saved(settingsLocation: Self.oslo, saveLocation: nil)?.location == Self.oslo)
        #expect(try saved(settingsLocation: nil, saveLocation: nil)?.location == nil)
    }
}
