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
///
/// With `readingStreams` (`import`, `record --input`), a named pipe, a socket or `/dev/stdin` on a
/// pipe (`<(…)` too) is read to its end into a temporary file (removed with this object), which is then used as the file: decoding needs to
/// read a file twice (its content digest, then its audio) and to seek. The copy waits with `poll`,
/// a tenth of a second at a time, so a stop (Ctrl-C, SIGTERM) ends it even when no writer ever
/// comes. A terminal or another character device is refused at once with one line.
package final class UserPath {
    /// The argument as given (it may carry `PathBytes` scalars).
    package let argument: String
    /// The path to hand to file APIs.
    package let path: String
    /// The name for messages: `16 La Red\xE9couverte.wav`.
    let shown: String
    /// The file's name without its extension, valid UTF-8: `16 La Redécouverte`.
    let stem: String
    private var descriptor: Int32?
    /// The copy of a stream, removed on deinit.
    private var streamCopy: URL?

    /// - Throws: `AudioFileError.notFound` or `.unreadable` (naming the file as `shown`) when a
    ///   name that is not UTF-8 cannot be opened.
    /// - Parameter readingStreams: Read a pipe or socket into a temporary file, checking this
    ///   between waits; true stops the copy (`RecordingInterrupted.cancelled`). Nil: use the path as it is.
    /// - Parameter reader: the command that reads the file, as its messages name it ("import",
    ///   "record --input"): "record --input reads files, or a pipe: cat talk.wav | livetranscriber record --input /dev/stdin".
    /// - Throws: also `UserPath.Failure` for a terminal or a device, or when the copy cannot be
    ///   written or read; `RecordingInterrupted.cancelled` when stopped.
    package init(_ argument: String, readingStreams stopRequested: (() -> Bool)? = nil, reader: String = "import") throws {
        self.argument = argument
        shown = PathBytes.shown(argument)
        stem = URL(fileURLWithPath: PathBytes.readable(argument)).deletingPathExtension().lastPathComponent
        var status = stat()
        let bytes = PathBytes.bytes(of: argument).map { CChar(bitPattern: $0) } + [0]
        if stopRequested != nil, argument == "-", stat(bytes, &status) != 0 {
            // `record --input -` reads raw PCM; import reads files, and a pipe by its name.
            throw Failure(message: "no such file: -; to import from a pipe, give /dev/stdin: cat talk.wav | livetranscriber import /dev/stdin")
        }
        if let stopRequested, stat(bytes, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFIFO, S_IFSOCK:
                let copy = try Self.copyStream(bytes, shown: shown, stopRequested: stopRequested)
                streamCopy = copy
                path = copy.path
                descriptor = nil
                return
            case S_IFCHR, S_IFBLK:
                throw Failure(message: "\(shown) is a terminal or a device, not an audio file; \(reader) reads files, "
                    + "or a pipe: cat talk.wav | livetranscriber \(reader) /dev/stdin")
            default: break
            }
        }
        guard PathBytes.hasRawBytes(argument) else {
            path = argument
            descriptor = nil
            return
        }
        let opened = open(bytes, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            let error = errno
            if error == ENOENT || error == ENOTDIR { throw AudioFileError.notFound(path: shown) }
            throw AudioFileError.unreadable(path: shown, reason: String(cString: strerror(error)))
        }
        descriptor = opened
        path = "/proc/self/fd/\(opened)"
    }

    deinit {
        if let descriptor { close(descriptor) }
        if let streamCopy { try? FileManager.default.removeItem(at: streamCopy) }  // a temporary copy: nothing to keep
    }

    /// Reads the pipe or socket at `bytes` to its end into a new temporary file.
    private static func copyStream(_ bytes: [CChar], shown: String, stopRequested: () -> Bool) throws -> URL {
        // Non-blocking: opening a FIFO for reading would otherwise wait for a writer, deaf to signals.
        let input = open(bytes, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { throw Failure(message: "cannot read \(shown): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("livetranscriber-stream-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        let output = open(copy.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw Failure(message: "cannot copy \(shown) to \(copy.path): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var sawData = false
        do {
            while true {
                if stopRequested() { throw RecordingInterrupted.cancelled }
                var waiting = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let ready = poll(&waiting, 1, 100)
                if ready == 0 || (ready < 0 && errno == EINTR) { continue }
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EAGAIN || errno == EINTR { continue }
                    throw Failure(message: "cannot read \(shown): \(String(cString: strerror(errno)))")
                }
                // End of stream: the writer closed it. A FIFO read before any writer came also
                // reads 0 bytes: keep waiting for one until a byte has arrived.
                if count == 0 {
                    if sawData || waiting.revents & Int16(POLLHUP) != 0 { break }
                    continue
                }
                sawData = true
                let written = buffer.withUnsafeBytes { write(output, $0.baseAddress, count) }
                guard written == count else {
                    throw Failure(message: "cannot copy \(shown) to \(copy.path): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            unlink(copy.path)
            throw error
        }
        return copy
    }

    /// A failure whose message names the file as the user gave it (`naming`).
    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// `message` with the stand-in path (`/proc/self/fd/N`, or a stream's temporary copy) replaced
    /// by the name the user gave.
    func naming(_ message: String) -> String {
        path == argument ? message : message.replacingOccurrences(of: path, with: shown)
    }
}
