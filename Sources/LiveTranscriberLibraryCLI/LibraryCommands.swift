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
    public static let speaker = CommandEntry(SpeakerCommand.self)
    public static let delete = CommandEntry(DeleteCommand.self)

    /// Run by `livetranscriber` itself: they read and change the library with the core, the store
    /// and SQLite only. Resolving a recording checks its duration against its audio's header,
    /// which the store reads itself for WAV and RF64 (`WAVFileLength`); a recording in another
    /// format (FLAC, Opus, M4A) is not checked by this program (`NoAudioReader`).
    public static let light: [CommandEntry] = [list, show, search, export, rename, tag, speaker, delete]
}

/// The store's audio reader in the library-only program, which links no audio library: the store
/// measures WAV and RF64 itself, and a duration in any other format is left as stated (no error).
/// Drafts are never recovered with it (`LibraryAccess.open`).
struct NoAudioReader: AudioFileMeasuring {
    func measure(_ url: URL) -> AudioFileMeasurement? { nil }
    func statedSeconds(_ url: URL) -> Double? { nil }
    func contentDigest(_ url: URL) -> String? { nil }
}
