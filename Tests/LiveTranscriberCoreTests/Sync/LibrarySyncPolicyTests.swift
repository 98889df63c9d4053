import Foundation
import LiveTranscriberCore
import LiveTranscriberTestSupport
import Testing

/// When a library in iCloud Drive refreshes its index, on a manual clock.
@Suite("Library sync policy")
struct LibrarySyncPolicyTests {
    static let a = "20261129-204112-aaaa"
    static let b = "20261129-204112-bbbb"
    static let t0 = Date(timeIntervalSince1970: 1_795_984_872)

    static func item(_ id: String, _ file: String = "metadata.json", downloaded: Bool = true, conflicts: Bool = false,
                     changed: Double? = 0) -> UbiquitousItem {
        UbiquitousItem(path: "recordings/\(id)/\(file)", isDownloaded: downloaded, hasUnresolvedConflicts: conflicts,
                       contentChanged: changed.map { t0.addingTimeInterval($0) })
    }

    /// A policy past its first gathering (which rebuilds), on a manual clock.
    static func gatheredPolicy() -> (LibrarySyncPolicy, ManualClock) {
        let clock = ManualClock(start: t0)
        let policy = LibrarySyncPolicy(clock: clock)
        #expect(policy.gathered([]) == [])
        clock.advance(by: 2)
        #expect(policy.due() == .rebuild)
        return (policy, clock)
    }

    @Test("paths: recordings' files count, placeholders name their file, drafts, trash and the index do not")
    func paths() {
        let placeholder = UbiquitousItem(path: "recordings/\(Self.a)/.transcript.json.icloud")
        #expect(placeholder.isPlaceholder)
        #expect(placeholder.logicalPath == "recordings/\(Self.a)/transcript.json")
        #expect(placeholder.recordingID == Self.a)
        #expect(UbiquitousItem(path: "recordings/.\(Self.a).icloud").recordingID == Self.a)
        #expect(UbiquitousItem(path: "recordings/\(Self.a)").recordingID == Self.a)
        #expect(UbiquitousItem(path: "drafts/\(Self.a)/audio.wav").recordingID == nil)
        #expect(UbiquitousItem(path: "library.sqlite").recordingID == nil)
        #expect(UbiquitousItem(path: "recordings/../metadata.json").recordingID == nil)
        #expect(!UbiquitousItem(path: "recordings/\(Self.a)/.icloud").isPlaceholder)
    }

    @Test("the first gathering rebuilds once, after the quiet time")
    func gatheringRebuilds() {
        let clock = ManualClock(start: Self.t0)
        let policy = LibrarySyncPolicy(clock: clock)
        #expect(policy.gathered([Self.item(Self.a)]) == [])
        #expect(policy.nextDeadline == Self.t0.addingTimeInterval(2))
        clock.advance(by: 1.9)
        #expect(policy.due() == nil)
        clock.advance(by: 0.1)
        #expect(policy.due() == .rebuild)
        #expect(policy.due() == nil)
        #expect(policy.nextDeadline == nil)
    }

    @Test("changes are debounced: the refresh waits for 2 s of quiet and takes every recording changed meanwhile")
    func debounce() {
        let (policy, clock) = Self.gatheredPolicy()
        _ = policy.updated(added: [Self.item(Self.a)], changed: [], removed: [])
        clock.advance(by: 1.5)
        _ = policy.updated(added: [Self.item(Self.b, "transcript.json")], changed: [], removed: [])
        clock.advance(by: 1.5)
        #expect(policy.due() == nil)  // 1.5 s after the last change
        clock.advance(by: 0.5)
        #expect(policy.due() == .reindex([Self.a, Self.b]))
        #expect(policy.due() == nil)
    }

    @Test("a sync that never goes quiet is refreshed every 10 s, in steps")
    func maximumDelay() {
        let (policy, clock) = Self.gatheredPolicy()
        for step in 0..<11 {
            _ = policy.updated(added: [Self.item(step % 2 == 0 ? Self.a : Self.b, changed: Double(step))], changed: [], removed: [])
            if step < 10 { #expect(policy.due() == nil) }
            clock.advance(by: 1)
        }
        #expect(policy.due() == .reindex([Self.a, Self.b]))
    }

    @Test("our own writes are not news for 5 s; a change of that recording after that is")
    func ownWrites() {
        let (policy, clock) = Self.gatheredPolicy()
        policy.noteOwnWrite(recordingID: Self.a)
        clock.advance(by: 1)
        _ = policy.updated(added: [Self.item(Self.a)], changed: [], removed: [])
        clock.advance(by: 3)
        #expect(policy.nextDeadline == nil)
        #expect(policy.due() == nil)
        clock.advance(by: 1.5)  // 5.5 s after the write
        _ = policy.updated(added: [], changed: [Self.item(Self.a, changed: 5)], removed: [])
        clock.advance(by: 2)
        #expect(policy.due() == .reindex([Self.a]))
    }

    @Test("upload and download progress (the same content date reported again) is ignored")
    func progressIgnored() {
        let (policy, clock) = Self.gatheredPolicy()
        _ = policy.updated(added: [Self.item(Self.a, changed: 1)], changed: [], removed: [])
        clock.advance(by: 2)
        #expect(policy.due() == .reindex([Self.a]))
        _ = policy.updated(added: [], changed: [Self.item(Self.a, changed: 1), Self.item(Self.a, changed: 1)], removed: [])
        clock.advance(by: 2)
        #expect(policy.due() == nil)
        _ = policy.updated(added: [], changed: [Self.item(Self.a, changed: 9)], removed: [])  // renamed on the other device
        clock.advance(by: 2)
        #expect(policy.due() == .reindex([Self.a]))
    }

    @Test("a placeholder gets one download request and its recording waits until every awaited file has arrived")
    func placeholdersWait() {
        let (policy, clock) = Self.gatheredPolicy()
        let metadata = UbiquitousItem(path: "recordings/\(Self.a)/.metadata.json.icloud", isDownloaded: false)
        let transcript = Self.item(Self.a, "transcript.json", downloaded: false)
        #expect(policy.updated(added: [metadata, transcript, Self.item(Self.b)], changed: [], removed: [])
                == [.download(["recordings/\(Self.a)/metadata.json", "recordings/\(Self.a)/transcript.json"])])
        #expect(policy.updated(added: [], changed: [metadata], removed: []) == [])  // asked once only
        #expect(policy.isWaitingForDownload(Self.a))
        clock.advance(by: 2)
        #expect(policy.due() == .reindex([Self.b]))  // a is skipped while it downloads
        #expect(policy.nextDeadline == nil)  // no waking up while nothing but downloads is held
        _ = policy.updated(added: [], changed: [Self.item(Self.a, "metadata.json", changed: 3)], removed: [])
        clock.advance(by: 2)
        #expect(policy.due() == nil)  // the transcript is still on its way
        _ = policy.updated(added: [], changed: [Self.item(Self.a, "transcript.json", changed: 3)], removed: [])
        #expect(!policy.isWaitingForDownload(Self.a))
        clock.advance(by: 2)
        #expect(policy.due() == .reindex([Self.a]))
    }

    @Test("an awaited file that is removed ends the wait; a removal refreshes its recording")
    func removals() {
        let (policy, clock) = Self.gatheredPolicy()
        _ = policy.updated(added: [Self.item(Self.a, downloaded: false)], changed: [], removed: [])
        _ = policy.updated(added: [], changed: [], removed: [Self.item(Self.a)])
        #expect(!policy.isWaitingForDownload(Self.a))
        _ = policy.updated(added: [], changed: [], removed: [UbiquitousItem(path: "recordings/\(Self.b)")])
        clock.advance(by: 2)
        #expect(policy.due() == .reindex([Self.a, Self.b]))
    }

    @Test("conflicting versions are resolved once per report, and the recording refreshed when the resolved file is reported")
    func conflicts() {
        let (policy, clock) = Self.gatheredPolicy()
        #expect(policy.updated(added: [], changed: [Self.item(Self.a, conflicts: true, changed: 4)], removed: [])
                == [.resolveConflicts("recordings/\(Self.a)/metadata.json")])
        clock.advance(by: 2)
        #expect(policy.due() == nil)
        _ = policy.updated(added: [], changed: [Self.item(Self.a, changed: 4)], removed: [])
        clock.advance(by: 2)
        #expect(policy.due() == .reindex([Self.a]))
    }

    @Test("drafts, trash and the index never trigger a refresh")
    func ignoredPaths() {
        let (policy, clock) = Self.gatheredPolicy()
        let others = ["drafts/\(Self.a)/audio.wav", "trash/\(Self.a)/metadata.json", "library.sqlite", "library.generation"]
        #expect(policy.updated(added: others.map { UbiquitousItem(path: $0, isDownloaded: false) }, changed: [], removed: []) == [])
        clock.advance(by: 10)
        #expect(policy.due() == nil)
    }

    @Test("more recordings changed at once than the threshold rebuild instead")
    func threshold() {
        let clock = ManualClock(start: Self.t0)
        let policy = LibrarySyncPolicy(clock: clock, rebuildThreshold: 2)
        _ = policy.gathered([])
        clock.advance(by: 2)
        _ = policy.due()
        let ids = ["20261129-204112-0001", "20261129-204112-0002", "20261129-204112-0003"]
        _ = policy.updated(added: ids.map { Self.item($0) }, changed: [], removed: [])
        clock.advance(by: 2)
        #expect(policy.due() == .rebuild)
    }
}
