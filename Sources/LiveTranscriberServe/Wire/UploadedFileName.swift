import Foundation
import LiveTranscriberCore

/// The name an uploaded file is kept under while it is imported (the recording is named after
/// it, `RecordingImport.name(of:)`).
public enum UploadedFileName {
    /// Why a name given for an upload cannot be kept; its description is one line for the answer.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Nothing is left once the path and the spaces around it are dropped.
        case missing
        /// It starts with "." (".", "..", a hidden file's name).
        case hidden(String)
        /// It holds a NUL or another control character (the first one found).
        case controlCharacter(Unicode.Scalar)
        /// Longer than a file name can be, 255 bytes of UTF-8.
        case tooLong(bytes: Int)

        public var description: String {
            switch self {
            case .missing:
                return "give the file's name as name (such as name=meeting.wav)"
            case .hidden(let name):
                return "the file's name '\(VisibleText.escaped(name))' starts with '.'; give the audio file's own name (such as name=meeting.wav)"
            case .controlCharacter(let scalar):
                return "the file's name holds a control character (U+\(String(format: "%04X", scalar.value))); give the audio file's own name"
            case .tooLong(let bytes):
                return "the file's name is \(bytes) bytes long; a file name has at most 255"
            }
        }
    }

    /// The last path component of `name` (a browser may send a whole path, with "/" or "\"),
    /// spaces around it dropped; nil when nothing usable is left (`check(_:)` says why).
    public static func checked(_ name: String) -> String? {
        try? check(name)
    }

    /// The last path component of `name`, spaces around it dropped.
    /// - Throws: `Problem` when nothing usable is left: empty, starting with "." (".", "..", a
    ///   hidden file), holding a NUL or another control character, or longer than 255 bytes.
    public static func check(_ name: String) throws -> String {
        let last = name.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let trimmed = last.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw Problem.missing }
        if let control = trimmed.unicodeScalars.first(where: { CharacterSet.controlCharacters.contains($0) }) {
            throw Problem.controlCharacter(control)
        }
        guard !trimmed.hasPrefix(".") else { throw Problem.hidden(trimmed) }
        guard trimmed.utf8.count <= 255 else { throw Problem.tooLong(bytes: trimmed.utf8.count) }
        return trimmed
    }
}
