import Foundation
import LiveTranscriberCore
import LiveTranscriberLinux

/// A file the user named on the command line, ready for the file APIs, which take UTF-8 strings.
///
/// A name that is UTF-8 is used as given. A name that is not (`PathBytes`: a Latin-1 byte) is
/// opened by its bytes, and the file is then reached as `/proc/self/fd/N` (Linux's link to an open
/// file, which every later open, libsndfile's included, follows); the descriptor stays open as
/// long as this object lives. Messages show the name with its bytes escaped (`shown`), and a
/// recording made from it gets a valid UTF-8 name (`stem`, the bytes read as Latin-1).
final class UserPath {
    /// The argument as given (it may carry `PathBytes` scalars).
    let argument: String
    /// The path to hand to file APIs.
    let path: String
    /// The name for messages: `16 La Red\xE9couverte.wav`.
    let shown: String
    /// The file's name without its extension, valid UTF-8: `16 La Redécouverte`.
    let stem: String
    private let descriptor: Int32?

    /// - Throws: `AudioFileError.notFound` or `.unreadable` (naming the file as `shown`) when a
    ///   name that is not UTF-8 cannot be opened.
    init(_ argument: String) throws {
        self.argument = argument
        shown = PathBytes.shown(argument)
        stem = URL(fileURLWithPath: PathBytes.readable(argument)).deletingPathExtension().lastPathComponent
        guard PathBytes.hasRawBytes(argument) else {
            path = argument
            descriptor = nil
            return
        }
        let bytes = PathBytes.bytes(of: argument).map { CChar(bitPattern: $0) } + [0]
        let opened = open(bytes, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            let error = errno
            if error == ENOENT || error == ENOTDIR { throw AudioFileError.notFound(path: shown) }
            throw AudioFileError.unreadable(path: shown, reason: String(cString: strerror(error)))
        }
        descriptor = opened
        path = "/proc/self/fd/\(opened)"
    }

    deinit { if let descriptor { close(descriptor) } }

    /// A failure whose message names the file as the user gave it (`naming`).
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `message` with the stand-in path (`/proc/self/fd/N`) replaced by the name the user gave.
    func naming(_ message: String) -> String {
        descriptor == nil ? message : message.replacingOccurrences(of: path, with: shown)
    }
}
