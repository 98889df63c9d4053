import Foundation
import LiveTranscriberCore
@testable import LiveTranscriberCLI
import LiveTranscriberLibraryCLI
import LiveTranscriberStore
import LiveTranscriberTestSupport
import Testing

/// `record`'s second pass in this process, with real whisper, on the 24.7 s LibriVox recording of
/// `ServedLibrary`, against another command changing the same recording while the pass runs.
@Suite("the second pass never overwrites a transcript another command saved meanwhile")
struct TranscriptRefinerTests {
    @Test("a transcript saved by another command during the pass is kept, with the live one still its previous; the pass says so")
    func anotherCommandsTranscriptWins() throws {
        let library = try ServedLibrary()
        let context = library.context
        let store = try LibraryAccess.open(context)
        let other = [TranscriptSegment(text: "Another command's words.", startSeconds: 0.5, endSeconds: 2)]
        var changed = false
        let outcome = TranscriptRefiner(context: context, store: store, engine: .whisper, model: nil, recordedUnder: .automatic).refine(library.long, isStopped: {
            // Asked after each block of audio: the first time, `retranscribe` (another store, as another process) saves first.
            if !changed {
                changed = true
                try? LibraryAccess.open(context).replaceTranscript(of: library.long.id, with: other)
            }
            return false
        }, progressOutput: nil)
        guard case .replacedMeanwhile = outcome else {
            Issue.record("expected .replacedMeanwhile, got \(outcome)")
            return
        }
        #expect(try store.transcript(of: library.long.id) == other)
        #expect(try store.restorePreviousTranscript(of: library.long.id))
        #expect(try store.transcript(of: library.long.id) == library.segments)
    }

    @Test("with nothing changing the recording meanwhile, the pass saves the file path's transcript and keeps the one it replaced")
    func unchangedRecordingIsRefined() throws {
        let library = try ServedLibrary()
        let context = library.context
        let store = try LibraryAccess.open(context)
        let outcome = TranscriptRefiner(context: context, store: store, engine: .whisper, model: nil, recordedUnder: .automatic)
            .refine(library.long, isStopped: { false }, progressOutput: nil)
        guard case .refined(let refined, _) = outcome else {
            Issue.record("expected .refined, got \(outcome)")
            return
        }
        #expect(try store.transcript(of: library.long.id) == refined.segments)
        #expect(refined.segments.map { $0.text }.joined(separator: " ").contains("ill-disposed young man"))
        #expect(try store.restorePreviousTranscript(of: library.long.id))
        #expect(try store.transcript(of: library.long.id) == library.segments)
    }
}
