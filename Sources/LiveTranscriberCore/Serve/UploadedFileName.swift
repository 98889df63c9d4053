import Foundation

/// The name an uploaded file is kept under while it is imported (the recording is named after
/// it, `RecordingImport.name(of:)`).
public enum UploadedFileName {
    /// The last path component of `name` (a browser may send a whole path, with "/" or "\"),
    /// spaces around it dropped; nil when nothing usable is left: empty, starting with "." (".",
    /// "..", a hidden file), holding a NUL or another control character, or longer than 255 bytes.
    public static func checked(_ name: String) -> String? {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let trimmed = last.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("."), trimmed.utf8.count <= 255,
              !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }) else { return nil }
        return trimmed
    }
}
