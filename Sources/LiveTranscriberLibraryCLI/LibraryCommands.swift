import Foundation
import LiveTranscriberCore

/// The commands whose code lives with the command framework (they need the core, the store and
/// SQLite only). `light` are those the `livetranscriber` program runs itself, starting in a few
/// milliseconds; every other command, and help that lists every command, is the full program's
/// (`livetranscriber-full`, docs/architecture.md "Two programs"), which also lists these in
/// `CommandRegistry.all`.
public enum LibraryCommands {
    public static let list = CommandEntry(ListCommand.self)
    public static let show = CommandEntry(ShowCommand.self)
    public static let search = CommandEntry(SearchCommand.self)
    public static let export = CommandEntry(ExportCommand.self)
    public static let rename = CommandEntry(RenameCommand.self)
    public static let tag = CommandEntry(TagCommand.self)
    public static let delete = CommandEntry(DeleteCommand.self)

    /// Run by `livetranscriber` itself: they read the index only. The others read a recording's
    /// audio header on the way (`LibraryStore.resolve` corrects a duration longer than the audio,
    /// with libsndfile), so the full program runs them.
    public static let light: [CommandEntry] = [list, search]
}

/// The store's audio reader in the library-only program, whose commands read no audio file.
struct NoAudioReader: AudioFileMeasuring {
    func measure(_ url: URL) -> AudioFileMeasurement? { nil }
    func statedSeconds(_ url: URL) -> Double? { nil }
    func contentDigest(_ url: URL) -> String? { nil }
}
