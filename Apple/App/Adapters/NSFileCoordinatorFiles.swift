import Foundation
import LiveTranscriberStore

/// The library store's `FileCoordinating` over `NSFileCoordinator`, for a library whose
/// recordings are in iCloud Drive: every read of a recording's JSON files and every change of a
/// recording folder waits for iCloud's daemon (and any other file presenter) to be done with it,
/// and the daemon waits for the store.
///
/// Each call uses a fresh coordinator with no file presenter, and the store never nests calls
/// (`FileCoordinating`), so a coordinated block never waits on itself. The store's own paths are
/// used inside the block: the library's folders are not moved by anyone else while it holds them.
/// `onWrite` hears of every coordinated change before it is made (the sync policy ignores the
/// query's reports of our own writes).
struct NSFileCoordinatorFiles: FileCoordinating {
    let onWrite: @Sendable (URL) -> Void

    func coordinateReading<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        var coordinationError: NSError?
        var result: Result<T, any Error>?
        NSFileCoordinator(filePresenter: nil).coordinate(readingItemAt: url, options: [], error: &coordinationError) { _ in
            result = Result { try body() }
        }
        if let coordinationError { throw coordinationError }
        guard let result else { throw CocoaError(.fileReadUnknown) }
        return try result.get()
    }

    func coordinateWriting<T>(_ url: URL, _ intent: FileWriteIntent, _ body: () throws -> T) throws -> T {
        let coordinator = NSFileCoordinator(filePresenter: nil)
        var coordinationError: NSError?
        var result: Result<T, any Error>?
        switch intent {
        case .replacing:
            onWrite(url)
            coordinator.coordinate(writingItemAt: url, options: [], error: &coordinationError) { _ in
                result = Result { try body() }
            }
        case .moving(let destination):
            onWrite(url)
            onWrite(destination)
            coordinator.coordinate(writingItemAt: url, options: .forMoving, writingItemAt: destination, options: .forReplacing,
                                   error: &coordinationError) { source, target in
                coordinator.item(at: source, willMoveTo: target)
                result = Result { try body() }
                if case .success = result { coordinator.item(at: source, didMoveTo: target) }
            }
        }
        if let coordinationError { throw coordinationError }
        guard let result else { throw CocoaError(.fileWriteUnknown) }
        return try result.get()
    }
}
