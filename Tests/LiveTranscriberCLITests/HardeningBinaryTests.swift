import Foundation
import LiveTranscriberTestSupport
import Testing

/// Runs `script` with /bin/bash in `directory`, with `$B` the built binary and the library's
/// environment: for arguments Foundation's `Process` cannot pass (bytes that are not UTF-8) and
/// for shell features (completion, pipes). `extra` adds variables to its environment.
func runBash(_ script: String, library: TemporaryLibrary, in directory: URL, extra: [String: String] = [:]) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = directory
    process.environment = ProcessInfo.processInfo.environment.merging(library.environment) { $1 }
        .merging(["B": try binaryURL().path, "TZ": "UTC"]) { $1 }.merging(extra) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(exitCode: process.terminationStatus,
                         stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
}

@Suite("hardening, round three: through the built binary", .serialized)
struct HardeningBinaryTests {
    @Test("a line break in a path is shown escaped, never raw, in errors and in what was written")
    func lineBreakInPath() throws {
        let library = try TemporaryLibrary()
        let folder = library.url
        let missing = try runBash(#"$B import $'a\nb.wav'"#, library: library, in: folder)
        #expect(missing.exitCode == 1)
        #expect(missing.stderr == "error: no such file: a\\u{A}b.wav\n1 of 1 file could not be imported.\n")

        let fixtures = try runBash(#"""
            printf 'RIFF' > $'bad\nname.wav'
            $B import $'bad\nname.wav'
            """#, library: library, in: folder)
        #expect(fixtures.exitCode == 1)
        #expect(fixtures.stderr.components(separatedBy: "\n").count == 3, "\(fixtures.stderr)")
        #expect(fixtures.stderr.hasPrefix("error: bad\\u{A}name.wav "))
    }

    @Test("bash completion offers an option's choices, and file names only for free values")
    func bashCompletionChoices() throws {
        let library = try TemporaryLibrary()
        let script = #"""
            source <($B completion bash)
            touch talk.wav
            complete_words() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _livetranscriber; echo "${COMPREPLY[*]}"; }
            complete_words livetranscriber export x --format ""
            complete_words livetranscriber export x --format s
            complete_words livetranscriber import --engine ""
            complete_words livetranscriber retranscribe x --engine ""
            complete_words livetranscriber record --format ""
            complete_words livetranscriber activity preview --state p
            complete_words livetranscriber export x --output ta
            """#
        let run = try runBash(script, library: library, in: library.url)
        #expect(run.exitCode == 0, "\(run.stderr)")
        #expect(run.stdout == """
            txt md srt vtt json
            srt
            whisper pocketsphinx
            local whisper pocketsphinx openai
            wav flac opus
            paused
            talk.wav

            """)
    }

    @Test("a file name with a Latin-1 byte is imported and recorded from, shown escaped, and stored with a UTF-8 name")
    func latin1FileName() throws {
        let library = try TemporaryLibrary()
        let script = #"""
            cp "$L" $'16 La Red\xe9couverte.wav'
            $B import $'16 La Red\xe9couverte.wav'; echo "exit $?"
            $B record --input $'16 La Red\xe9couverte.wav' --speed max --name second > /dev/null; echo "exit $?"
            $B list --json | grep '^    "name"'
            $B import $'nope\xe9.wav'; echo "exit $?"
            """#
        let run = try runBash("L=\(Speech.librivox)\n" + script, library: library, in: library.url)
        let lines = run.stdout.components(separatedBy: "\n")
        #expect(lines.count == 7, "\(run.stdout) \(run.stderr)")
        guard lines.count == 7 else { return }
        #expect(lines[0].hasPrefix("Imported 16 La Red\\xE9couverte.wav as "))
        #expect(lines[0].hasSuffix(": 0:02, 1 segment."), "\(lines[0])")
        #expect(Array(lines[1...6]) == ["exit 0", "exit 0", "    \"name\" : \"second\",", "    \"name\" : \"16 La Redécouverte\",", "exit 1", ""])
        #expect(run.stderr == "error: no such file: nope\\xE9.wav\n1 of 1 file could not be imported.\n")
    }

    @Test("import reads a pipe and a named pipe to their end, stops on SIGTERM while no writer comes, and refuses a device at once")
    func pipes() throws {
        let library = try TemporaryLibrary()
        let script = #"""
            cat "$L" | $B import /dev/stdin; echo "exit $?"
            mkfifo p.wav q.wav
            (cat "$L" > p.wav &)
            $B import --again p.wav; echo "exit $?"
            $B import q.wav 2> stopped.txt &
            pid=$!
            # Waits until the import holds q.wav open (no writer will ever come), then stops it.
            until ls -l /proc/$pid/fd 2>/dev/null | grep -q q.wav; do sleep 0.1; done
            kill -TERM $pid; wait $pid; echo "exit $?"
            cat stopped.txt
            $B import /dev/null; echo "exit $?"
            ls "${TMPDIR:-/tmp}" | grep -c "^livetranscriber-stream-$pid-"
            """#
        let run = try runBash("L=\(Speech.librivox)\n" + script, library: library, in: library.url)
        let lines = run.stdout.components(separatedBy: "\n")
        #expect(lines.count == 9, "\(run.stdout) \(run.stderr)")
        guard lines.count == 9 else { return }
        #expect(lines[0].hasPrefix("Imported /dev/stdin as ") && lines[0].hasSuffix(": 0:02, 1 segment."), "\(lines[0])")
        #expect(lines[2].hasPrefix("Imported p.wav as ") && lines[2].hasSuffix(": 0:02, 1 segment."), "\(lines[2])")
        #expect([lines[1], lines[3]] == ["exit 0", "exit 0"])
        #expect(Array(lines[4...8]) == ["exit 143", "Import stopped: 0 imported, 1 not imported.", "exit 1", "0", ""])
        #expect(run.stderr == "error: /dev/null is a terminal or a device, not an audio file; import reads files, "
            + "or a pipe: cat talk.wav | livetranscriber import /dev/stdin\n1 of 1 file could not be imported.\n")
    }

    @Test("record --input reads a pipe, a named pipe and <(…) as import does, stops on SIGTERM while no writer comes, and refuses a device in one line; - is still raw PCM")
    func recordFromPipes() throws {
        let library = try TemporaryLibrary()
        let scratch = library.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let script = #"""
            cat "$L" | $B record --input /dev/stdin --speed max --name stdin > /dev/null; echo "exit $?"
            mkfifo p.wav q.wav
            (cat "$L" > p.wav &)
            $B record --input p.wav --speed max --name fifo > /dev/null; echo "exit $?"
            $B record --input <(cat "$L") --speed max --name substituted > /dev/null; echo "exit $?"
            $B record --input q.wav 2> stopped.txt &
            pid=$!
            # Waits until the recorder holds q.wav open (no writer will ever come), then stops it.
            until ls -l /proc/$pid/fd 2>/dev/null | grep -q q.wav; do sleep 0.1; done
            kill -TERM $pid; wait $pid; echo "exit $?"
            cat stopped.txt
            $B record --input /dev/null; echo "exit $?"
            printf 'not audio at all' | $B record --input /dev/stdin; echo "exit $?"
            tail -c +45 "$L" | $B record --input - --rate 16000 --name raw > /dev/null; echo "exit $?"
            $B list --json | grep '"name"' | sort
            ls "$TMPDIR" | wc -l
            """#
        let run = try runBash("L=\(Speech.librivox)\n" + script, library: library, in: library.url, extra: ["TMPDIR": scratch.path])
        #expect(run.stdout.components(separatedBy: "\n") == [
            "exit 0", "exit 0", "exit 0", "exit 1",
            "error: stopped before any audio was recorded; nothing was saved",
            "exit 1", "exit 1", "exit 0",
            "    \"name\" : \"fifo\",", "    \"name\" : \"raw\",", "    \"name\" : \"stdin\",", "    \"name\" : \"substituted\",",
            "0", "",
        ], "\(run.stderr)")
        #expect(run.stderr == "error: /dev/null is a terminal or a device, not an audio file; record --input reads files, "
            + "or a pipe: cat talk.wav | livetranscriber record --input /dev/stdin\n"
            + "error: /dev/stdin is not an audio file this tool can read (Format not recognised.); it reads WAV, FLAC, Ogg Vorbis or Opus, MP3 and AIFF\n")
    }

    @Test("a pipe that holds no audio is named /dev/stdin in the error, not by its temporary copy")
    func pipeErrorNamesTheArgument() throws {
        let library = try TemporaryLibrary()
        let run = try runBash("printf 'not audio at all' | $B import /dev/stdin", library: library, in: library.url)
        #expect(run.exitCode == 1)
        #expect(run.stderr.hasPrefix("error: /dev/stdin is not an audio file this tool can read"), "\(run.stderr)")
        #expect(!run.stderr.contains("livetranscriber-stream-"), "\(run.stderr)")
    }

    @Test("--help of the speech commands says pocketsphinx costs more CPU on files, not that it is light")
    func pocketsphinxHelp() throws {
        let library = try TemporaryLibrary()
        for command in ["import", "record"] {
            let run = try runBash("$B \(command) --help", library: library, in: library.url)
            #expect(run.exitCode == 0)
            #expect(run.stdout.contains("pocketsphinx (pocketsphinx, streaming, US English only, less memory but about 3x whisper's CPU on files)"))
            #expect(!run.stdout.contains("light"))
        }
    }
}
