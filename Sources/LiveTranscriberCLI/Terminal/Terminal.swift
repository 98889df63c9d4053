import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The terminal and process signals: the one place in the CLI that talks to the OS directly.
enum Terminal {
    /// Columns of the terminal on stdout, 80 when unknown.
    static func width(fileDescriptor: Int32 = 1) -> Int {
        size(fileDescriptor: fileDescriptor).columns
    }

    /// Columns and rows of the terminal on `fileDescriptor`, asked at every call so a resize is
    /// seen; when the terminal does not say, `COLUMNS` and `LINES`, else 80 × 24.
    static func size(fileDescriptor: Int32 = 1, environment: [String: String] = [:]) -> (columns: Int, rows: Int) {
        var size = winsize()
        let known = ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0
        func variable(_ name: String, default value: Int) -> Int {
            environment[name].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? value
        }
        let columns = known && size.ws_col > 0 ? Int(size.ws_col) : variable("COLUMNS", default: 80)
        let rows = known && size.ws_row > 0 ? Int(size.ws_row) : variable("LINES", default: 24)
        return (columns, rows)
    }

    /// Puts stdin in non-canonical, no-echo mode so single key presses arrive at once.
    /// Returns a value that restores the previous mode; nil when stdin is not a terminal.
    static func enableKeyInput() -> KeyInput? {
        guard isatty(0) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(0, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(0, TCSANOW, &raw) == 0 else { return nil }
        return KeyInput(original: original)
    }

    /// Reads key presses without blocking longer than asked.
    final class KeyInput {
        private var original: termios

        fileprivate init(original: termios) {
            self.original = original
        }

        /// Waits up to `seconds` for input and returns the keys pressed (possibly none).
        func keys(waiting seconds: Double) -> [UInt8] {
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(0, seconds * 1000)))
            guard ready > 0 else { return [] }
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = read(0, &buffer, buffer.count)
            return count > 0 ? Array(buffer[0..<count]) : []
        }

        /// Restores the terminal mode found at start.
        func restore() {
            tcsetattr(0, TCSANOW, &original)
        }

        deinit { restore() }
    }

    /// Sleeps up to `seconds` (used when there is no key input to wait on).
    static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        Thread.sleep(forTimeInterval: seconds)
    }
}

/// Turns SIGINT (Ctrl-C), SIGTERM and SIGHUP (the terminal closed) into a flag the recording loop
/// checks, so a stop always saves.
package final class StopSignals {
    private let flag: StopFlag
    private let sources: [any DispatchSourceSignal]

    package init(queue: DispatchQueue = DispatchQueue(label: "livetranscriber.signals")) {
        let flag = StopFlag()
        self.flag = flag
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for (source, number) in zip(sources, [SIGINT, SIGTERM, SIGHUP]) {
            source.setEventHandler { [flag] in flag.raise(signal: number) }
            source.resume()
        }
    }

    /// Stop requests another `StopSignals` receives (its `flag`), with no handlers of its own:
    /// for work started while that one waits (an import uploaded to `serve`), stopped by the same
    /// Ctrl-C or SIGTERM. `cancel()` leaves the signals' handlers alone.
    package init(following flag: StopFlag) {
        self.flag = flag
        sources = []
    }

    /// The flag raised by a stop signal, to share with `init(following:)`.
    package var stopFlag: StopFlag { flag }

    /// True once a stop signal arrived.
    package var stopRequested: Bool { flag.isRaised }

    /// Blocks the calling thread until a stop signal arrives (`serve`'s main thread).
    package func waitForStop() { flag.waitUntilRaised() }

    /// How many stop signals arrived so far: work that starts after a stop (`record`'s second
    /// pass) is stopped by the next one. (A second `StopSignals` cannot take over: libdispatch
    /// does not hand a signal to a source made after one for it was cancelled.)
    var count: Int { flag.count }

    /// The exit code of a command this signal stopped: 128 + its number (`ExitCode.stopped(by:)`).
    var exitCode: Int32 { ExitCode.stopped(by: flag.signal == 0 ? SIGINT : flag.signal) }

    /// Puts the default handlers back.
    package func cancel() {
        guard !sources.isEmpty else { return }
        for source in sources { source.cancel() }
        for number in [SIGINT, SIGTERM, SIGHUP] { signal(number, SIG_DFL) }
    }
}

/// A flag set from a signal handler's queue and read by the recording loop; keeps the first signal.
/// A thread with nothing else to do waits for it with `waitUntilRaised()`.
package final class StopFlag: Sendable {
    private let value = Atomic<Int32>(0)
    private let raised = Atomic<Int>(0)
    /// Broadcast on each raise, for `waitUntilRaised()`.
    private let wasRaised = NSCondition()

    package init() {}

    package func raise(signal: Int32 = SIGINT) {
        _ = value.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
        raised.add(1, ordering: .relaxed)
        wasRaised.lock()
        wasRaised.broadcast()
        wasRaised.unlock()
    }

    /// Blocks the calling thread until the flag is raised (at once when it already is).
    package func waitUntilRaised() {
        wasRaised.lock()
        defer { wasRaised.unlock() }
        while !isRaised { wasRaised.wait() }
    }

    /// How many times it was raised.
    var count: Int { raised.load(ordering: .relaxed) }

    package var isRaised: Bool { value.load(ordering: .relaxed) != 0 }

    /// The first stop signal's number, 0 before any.
    var signal: Int32 { value.load(ordering: .relaxed) }
}
