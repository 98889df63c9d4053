import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import LiveTranscriberStore

/// How library commands open the library and print what they share.
package enum LibraryAccess {
    /// Opens the library in the context's data directory, first recovering drafts left by a crash
    /// (a note per recovered recording on stderr) when the context can read audio
    /// (`CommandContext.audioMeasure`). Drafts being recorded by a live process are left alone.
    package static func open(_ context: CommandContext) throws -> LibraryStore {
        try checkDataDirectory(context)
        // One command, then the process exits: mapping the index would cost more than it saves.
        let store = try LibraryStore(directory: context.dataDirectory, timeZone: timeZone(context),
                                     audioMeasure: context.audioMeasure ?? NoAudioReader(), memoryMappedIndex: false)
        let note = "note: the search index was damaged and has been rebuilt from the recording folders (the old one is library.sqlite.damaged)."
        if store.rebuiltDamagedIndex { context.printError(note) }
        store.onDamagedIndexRebuilt = { context.printError(note) }
        // Without an audio reader this is the library-only program, which handed the command to
        // the full program when it found drafts to recover: one that appears meanwhile waits
        // for the next command.
        guard context.audioMeasure != nil else { return store }
        for recording in try store.recoverDrafts() {
            let segments = (try? store.transcript(of: recording.id)) ?? []
            context.printError("note: recovered an interrupted recording: \(recording.id) '\(recording.name)' "
                + "(\(ElapsedTimeFormat.clock(recording.durationSeconds)))"
                + "\(RecoveryHint.hint(id: recording.id, durationSeconds: recording.durationSeconds, segments: segments)).")
        }
        printRecoveryNotes(store, context)
        return store
    }

    /// Runs `body`, a command that saves into the library (`record`, `import`), so that a library
    /// it creates is removed again when the command ends with nothing in it (`LibraryCreation`):
    /// a failing command changes nothing, not even by leaving an empty library. `body` opens the
    /// store itself, so the store is closed when it returns, before anything is removed.
    package static func savingInto<T>(_ context: CommandContext, _ body: () throws -> T) throws -> T {
        try checkDataDirectory(context)
        let creation = LibraryCreation(directory: context.dataDirectory)
        defer { creation.removeIfUnused() }
        return try body()
    }


    /// What the last recovery wants the user to know (a damaged draft.json) and what it could not do.
    package static func printRecoveryNotes(_ store: LibraryStore, _ context: CommandContext) {
        for (id, note) in store.recoveryNotes.sorted(by: { $0.key < $1.key }) {
            context.printError("note: the interrupted recording \(id): \(note).")
        }
        for (id, problem) in store.recoveryProblems.sorted(by: { $0.key < $1.key }) {
            context.printError("warning: could not recover the interrupted recording in drafts/\(id): \(problem)")
        }
    }

    /// After `list` and `search`: a note on stderr naming the recording folders the index leaves
    /// out because their metadata.json or transcript.json cannot be read (`unreadableFolders`),
    /// so that no recording disappears without a word. Nothing is printed when there are none.
    package static func printUnreadableNote(_ folders: [UnreadableRecordingFolder], _ context: CommandContext) {
        guard !folders.isEmpty else { return }
        let ids = folders.prefix(5).map(\.id).joined(separator: ", ") + (folders.count > 5 ? " and \(folders.count - 5) more" : "")
        context.printError("note: \(Plural.count(folders.count, "recording")) could not be read and \(folders.count == 1 ? "is" : "are") left out: \(ids). "
            + "'livetranscriber show <id>' says why; once the file is fixed, run 'livetranscriber reindex'.")
    }

    /// The recording folders the index leaves out because they cannot be read (none for a
    /// library that does not exist yet, or when the folders cannot be listed).
    package static func unreadableFolders(_ store: any RecordingStore) -> [UnreadableRecordingFolder] {
        // The note is a courtesy after the command's own output: a failure to read the list (a
        // busy index) must not turn a list or search that worked into an error.
        (try? store.unreadableFolders()) ?? []
    }

    /// "the recording was saved as ID ('Name', 0:12); see it with 'livetranscriber show ID'".
    package static func savedLine(_ recording: Recording) -> String {
        "the recording was saved as \(recording.id) ('\(recording.name)', \(ElapsedTimeFormat.clock(recording.durationSeconds))); "
            + "see it with 'livetranscriber show \(recording.id)'"
    }

    /// Throws `DataDirectoryError` when the data directory, or a folder on its path, is a file.
    package static func checkDataDirectory(_ context: CommandContext) throws {
        var path = context.dataDirectory.standardizedFileURL
        while path.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) {
                if !isFolder.boolValue { throw DataDirectoryError(path: path.path, directory: context.dataDirectory.path, source: context.dataDirectorySource) }
                return
            }
            path.deleteLastPathComponent()
        }
    }

    /// `$TZ` when it names a time zone, else the system's.
    package static func timeZone(_ context: CommandContext) -> TimeZone {
        context.environment["TZ"].flatMap { TimeZone(identifier: $0.hasPrefix(":") ? String($0.dropFirst()) : $0) } ?? .current
    }

    /// Rows as left-aligned columns two spaces apart, the last column unpadded, no line ending in
    /// spaces. Widths are terminal columns: CJK characters and emoji count two. Cells are shown
    /// with hidden characters made visible (`VisibleText`) unless `escaping` is false (the caller
    /// escaped them itself).
    ///
    /// With `width` (the terminal's columns, `CommandContext.stdoutColumns`), every line fits it,
    /// in this order (docs/library.md, "What is printed"):
    /// 1. the cells of the `cutting` columns (free text such as names) are cut, the widest column
    ///    first and none below 10 columns, with "…" at the end of a cut cell (or as `cutCell` cuts
    ///    it: `cutCell(row, column, columns)` returns the cell cut to fit, nil for the usual cut);
    /// 2. when that is not enough, the `dropping` columns are left out, in that order;
    /// 3. then the `cutting` columns go below 10 columns, down to 1;
    /// 4. and a line still too wide (a terminal narrower than the columns left) is cut with "…".
    /// Color codes (`ESC[…m`) take no columns.
    package static func table(_ rows: [[String]], escaping: Bool = true, width: Int? = nil, cutting: [Int] = [], dropping: [Int] = [],
                              cutCell: ((_ row: Int, _ column: Int, _ columns: Int) -> String?)? = nil) -> String {
        var rows = escaping ? rows.map { $0.map(VisibleText.escaped) } : rows
        guard let columns = rows.map(\.count).max() else { return "" }
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], displayWidth(cell)) }
        }
        var shown = Array(0..<columns)
        if let width {
            let cuttable = { (column: Int) in cutting.contains(column) && shown.contains(column) }
            let narrowest = 10
            func minimum() -> Int {
                shown.map { cuttable($0) ? min(widths[$0], narrowest) : widths[$0] }.reduce(0, +) + 2 * (shown.count - 1)
            }
            for column in dropping where column < columns && minimum() > width && shown.count > 1 {
                shown.removeAll { $0 == column }
            }
            for floor in [narrowest, 1] {
                var excess = shown.map { widths[$0] }.reduce(0, +) + 2 * (shown.count - 1) - width
                while excess > 0, let widest = (0..<columns).filter({ cuttable($0) && widths[$0] > floor }).max(by: { widths[$0] < widths[$1] }) {
                    let others = (0..<columns).filter { cuttable($0) && $0 != widest }.map { widths[$0] }.max() ?? 0
                    let cut = max(1, min(excess, widths[widest] - max(floor, others), widths[widest] - floor))
                    widths[widest] -= cut
                    excess -= cut
                }
            }
            rows = rows.enumerated().map { number, row in
                row.enumerated().map { index, cell in
                    guard cutting.contains(index), displayWidth(cell) > widths[index] else { return cell }
                    return cutCell?(number, index, widths[index]) ?? cut(cell, width: widths[index])
                }
            }
        }
        return rows.map { row in
            let cells = shown.filter { $0 < row.count }
            var line = cells.map { index in
                let cell = row[index]
                // Padding repeats a Character: repeating a String takes its slow path once per cell.
                return index == cells.last ? cell : cell + String(repeating: Character(" "), count: max(0, widths[index] - displayWidth(cell)))
            }.joined(separator: "  ")
            // Empty last cells (a recording with no tags) leave no padding at the end of the line.
            line = String(line[..<(line.lastIndex(where: { $0 != " " }).map(line.index(after:)) ?? line.startIndex)])
            if let width, displayWidth(line) > width { line = cut(line, width: width) }
            return line
        }.joined(separator: "\n") + "\n"
    }

    /// `cell` cut to at most `width` columns with "…" at the end; color codes are kept whole,
    /// take no columns, and a color left on by the cut is turned off before the "…".
    static func cut(_ cell: String, width: Int) -> String {
        guard displayWidth(cell) > width else { return cell }
        var kept = ""
        var used = 1
        var colored = false
        var index = cell.startIndex
        while index < cell.endIndex {
            if cell[index] == "\u{1B}", let end = cell[index...].firstIndex(of: "m") {
                let code = cell[index...end]
                kept += code
                colored = code != "\u{1B}[0m"
                index = cell.index(after: end)
                continue
            }
            let needed = CharacterWidth.columns(of: cell[index])
            if used + needed > width { break }
            kept.append(cell[index])
            used += needed
            index = cell.index(after: index)
        }
        return kept + (colored ? "\u{1B}[0m" : "") + String(PresentationText.ellipsis)
    }

    /// Terminal columns `text` takes (`CharacterWidth`, the table the live card uses too).
    package static func displayWidth(_ text: String) -> Int {
        // A byte test: Foundation's substring search would bridge every cell to NSString.
        guard text.utf8.contains(0x1B) else { return CharacterWidth.columns(of: text) }
        return CharacterWidth.columns(of: text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression))
    }

    /// `--limit` (a positive number, `fallback` when absent) and `--offset` (0 or more, 0 when absent),
    /// as the command declares them (`limitOption`, `offsetOption`: their help differs).
    /// Throws `UsageError` for anything else.
    package static func page(_ arguments: ParsedArguments, limit limitOption: ValueOption, offset offsetOption: ValueOption,
                             fallback: Int?) throws -> (limit: Int?, offset: Int) {
        var limit = fallback
        if let text = arguments.value(limitOption) {
            guard let number = Int(text), number > 0 else {
                let tooLarge = Int(text) == nil && !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
                throw UsageError("invalid value '\(TerminalText.prefix(text, width: 40))' for '--limit'; use a positive number"
                    + (tooLarge ? " no larger than \(Int.max)" : ""))
            }
            limit = number
        }
        var offset = 0
        if let text = arguments.value(offsetOption) {
            guard let number = Int(text), number >= 0 else {
                let tooLarge = Int(text) == nil && !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber }
                throw UsageError("invalid value '\(TerminalText.prefix(text, width: 40))' for '--offset'; use 0 or a positive number"
                    + (tooLarge ? " no larger than \(Int.max)" : ""))
            }
            offset = number
        }
        return (limit, offset)
    }

    /// The one positional `ID` of a command, or a usage error.
    package static func singleID(_ arguments: ParsedArguments) throws -> String {
        try arguments.expectPositionals("ID", min: 1, max: 1)
        guard !arguments.positionals[0].trimmingCharacters(in: .whitespaces).isEmpty else { throw UsageError("ID cannot be empty") }
        return arguments.positionals[0]
    }
}

/// The data directory cannot be a folder because a file is in the way.
struct DataDirectoryError: Error, CustomStringConvertible {
    var path: String
    var directory: String
    var source: String

    var description: String {
        let subject = path == directory ? "the library folder \(directory)" : "\(path), on the way to the library folder \(directory),"
        return "\(subject) is a file, not a folder (set by \(source)); point \(source) at a folder"
    }
}
