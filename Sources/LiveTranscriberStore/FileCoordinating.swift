import Foundation

/// How a change moves or replaces a recording's folder, for the file coordinator.
public enum FileWriteIntent: Sendable, Equatable {
    /// Files inside the item are written or replaced (metadata, transcript).
    case replacing
    /// The item is moved to `destination` (a saved draft into `recordings/`, a deletion into `trash/`).
    case moving(to: URL)
}

/// How the store reaches a recording folder when another process may be reading or writing it:
/// iCloud Drive's daemon, uploading and downloading a library kept in the ubiquity container.
///
/// The store calls it around every read of a recording's `metadata.json` and `transcript.json`,
/// and around every change of a recording folder (save, rename, tags, transcript, delete). Bodies
/// never nest another coordinated call. On Linux, and for a library on the device only, the store
/// uses `UncoordinatedFiles`; the iPhone app passes an adapter over `NSFileCoordinator` when the
/// library is in iCloud Drive.
public protocol FileCoordinating: Sendable {
    /// Runs `body` while no coordinated writer changes `url` (a file).
    /// - Throws: the coordinator's error (nothing was read), or `body`'s.
    func coordinateReading<T>(_ url: URL, _ body: () throws -> T) throws -> T
    /// Runs `body` while nobody else reads or writes `url` (a recording's folder).
    /// - Throws: the coordinator's error (nothing was written), or `body`'s.
    func coordinateWriting<T>(_ url: URL, _ intent: FileWriteIntent, _ body: () throws -> T) throws -> T
}

/// No coordination: the body runs at once. Linux, and libraries nobody else writes.
public struct UncoordinatedFiles: FileCoordinating {
    public init() {}
    public func coordinateReading<T>(_ url: URL, _ body: () throws -> T) throws -> T { try body() }
    public func coordinateWriting<T>(_ url: URL, _ intent: FileWriteIntent, _ body: () throws -> T) throws -> T { try body() }
}
