import Foundation

/// One file of a library kept in iCloud Drive, as the app's metadata query reports it
/// (`NSMetadataQuery` over the ubiquity container), in the core's terms.
public struct UbiquitousItem: Sendable, Equatable {
    /// Path relative to the library folder, "/"-separated: "recordings/<id>/metadata.json". A
    /// not-yet-downloaded placeholder may be reported by its own name
    /// ("recordings/<id>/.metadata.json.icloud"); `logicalPath` gives the file it stands for.
    public var path: String
    /// True when the newest version is on this device (`NSMetadataUbiquitousItemDownloadingStatusCurrent`).
    public var isDownloaded: Bool
    /// True when iCloud holds versions of the file written on two devices that nobody has chosen
    /// between yet (`NSMetadataUbiquitousItemHasUnresolvedConflictsKey`).
    public var hasUnresolvedConflicts: Bool
    /// When the file's content last changed (`NSMetadataItemFSContentChangeDateKey`); nil when unknown.
    /// A change report with the same date is a status change only (upload or download progress).
    public var contentChanged: Date?

    public init(path: String, isDownloaded: Bool = true, hasUnresolvedConflicts: Bool = false, contentChanged: Date? = nil) {
        self.path = path
        self.isDownloaded = isDownloaded
        self.hasUnresolvedConflicts = hasUnresolvedConflicts
        self.contentChanged = contentChanged
    }

    /// True for iCloud Drive's stand-in for a file not downloaded yet: ".<name>.icloud".
    public var isPlaceholder: Bool { Self.placeholderTarget(lastComponent) != nil }

    /// The path of the file the item is (a placeholder's file: ".a.json.icloud" → "a.json").
    public var logicalPath: String {
        guard let target = Self.placeholderTarget(lastComponent) else { return path }
        let folder = path.split(separator: "/", omittingEmptySubsequences: true).dropLast().joined(separator: "/")
        return folder.isEmpty ? target : folder + "/" + target
    }

    /// The saved recording the item belongs to: the `<id>` of "recordings/<id>" or
    /// "recordings/<id>/…" when the id is safe (`RecordingID.isSafe`); nil for anything else
    /// (drafts, trash, the index and its lock, which are not the library's shared truth).
    public var recordingID: String? {
        let parts = logicalPath.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0] == LibraryLayout.recordings else { return nil }
        let id = String(parts[1])
        return RecordingID.isSafe(id) && !id.hasPrefix(".") ? id : nil
    }

    private var lastComponent: String {
        path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
    }

    /// "metadata.json" for ".metadata.json.icloud"; nil when `name` is not a placeholder's.
    static func placeholderTarget(_ name: String) -> String? {
        let suffix = ".icloud"
        guard name.hasPrefix("."), name.hasSuffix(suffix), name.count > 1 + suffix.count else { return nil }
        return String(name.dropFirst().dropLast(suffix.count))
    }
}
