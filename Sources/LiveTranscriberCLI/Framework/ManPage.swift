import Foundation

/// The manual page, `livetranscriber(1)` in roff, generated from the command specs (the same
/// source as `--help`), with the environment and exit status sections the specs cannot hold.
enum ManPage {
    /// The whole page.
    static func roff(commands: [CommandSpec], version: String) -> String {
        var page = """
            .TH LIVETRANSCRIBER 1 "" "livetranscriber \(escaped(version))" "User Commands"
            .SH NAME
            livetranscriber \\- live transcription recorder with a searchable library
            .SH SYNOPSIS
            .B livetranscriber
            .I subcommand
            .RI [ options ]
            .SH DESCRIPTION
            Records from the microphone, a file or standard input, transcribes on the device while it
            records, and keeps every recording with its transcript in a library that can be listed,
            searched, exported, summarized and retranscribed.
            Every subcommand takes
            .B \\-\\-help.
            .SH COMMANDS

            """
        for command in commands {
            page += ".SS \"\(escaped(command.name))\"\n\(line(command.abstract))\n.PP\n.B livetranscriber \(escaped(command.usage))\n"
            for argument in command.arguments {
                page += ".TP\n.I \(escaped(argument.name))\n\(line(argument.help))\n"
            }
            for option in command.options {
                let value = option.valueName.map { " \\fI\(escaped($0.lowercased()))\\fR" } ?? ""
                page += ".TP\n.B \\-\\-\(escaped(option.name))\(value)\n\(line(option.help))\n"
            }
            if let discussion = command.discussion {
                page += ".PP\n" + discussion.split(separator: "\n").map { line(String($0).trimmingCharacters(in: .whitespaces)) }.joined(separator: "\n") + "\n"
            }
        }
        page += """
            .SH ENVIRONMENT
            .TP
            .B LIVETRANSCRIBER_HOME
            The library folder. Default: \\fI$XDG_DATA_HOME/livetranscriber\\fR when XDG_DATA_HOME is an absolute path, else \\fI~/.local/share/livetranscriber\\fR.
            .TP
            .B NO_COLOR
            When set and not empty, no colors.
            .TP
            .B TERM
            When \\fBdumb\\fR or unset, no live card, colors or cursor movement: output is plain lines, as for a pipe.
            .TP
            .B TZ
            The time zone of dates shown and of \\fBlist \\-\\-since\\fR.
            .TP
            .B LIVETRANSCRIBER_ENGINE
            The default speech engine, \\fBwhisper\\fR or \\fBpocketsphinx\\fR, where \\fB\\-\\-engine\\fR is not given. Default: whisper when its models are installed, else pocketsphinx.
            .TP
            .B LIVETRANSCRIBER_MODELS
            A folder holding the Whisper and voice activity models (ggml\\-base.bin, ggml\\-silero\\-vad.bin) to use instead of the installed ones.
            .TP
            .B LIVETRANSCRIBER_VOCABULARY
            Names and words whisper should expect, comma\\-separated, where \\fB\\-\\-vocabulary\\fR is not given; else the library's \\fBvocabulary.txt\\fR is read.
            .TP
            .B OPENAI_API_KEY, OPENAI_API_KEY_FILE, OPENAI_BASE_URL
            The OpenAI key and server for \\fBretranscribe \\-\\-engine openai\\fR and \\fBsummarize \\-\\-engine openai\\fR.
            .SH EXIT STATUS
            .TP
            .B 0
            Success.
            .TP
            .B 1
            The command failed, or part of it did: nothing it was doing when it failed was changed or half\\-written, but what it had finished stays (an \\fBimport\\fR of several files keeps the files it imported and exits 1 when any other failed; \\fBrecord\\fR keeps the recording when only its output failed).
            .TP
            .B 64
            A usage mistake (an unknown option, a bad value).
            .TP
            .B 128+N
            Stopped by signal N before it finished (130 for Ctrl\\-C, 143 for SIGTERM).
            .B record
            saves what it recorded and exits 0 when stopped.
            .SH FILES
            .TP
            .I ~/.local/share/livetranscriber/
            recordings/, drafts/, trash/ and the search index library.sqlite.
            .TP
            .I <prefix>/lib/livetranscriber/livetranscriber\\-full
            Every command that records, imports, transcribes, summarizes or recovers, with the speech engines. \\fBlivetranscriber\\fR runs the library commands (list, show, search, export, rename, tag, delete) itself and hands every other command to it, with the same arguments.

            """
        return page
    }

    /// `text` as one roff text line: backslashes and dashes escaped, a leading "." or "'" protected.
    static func line(_ text: String) -> String {
        let body = escaped(text)
        return body.hasPrefix(".") || body.hasPrefix("'") ? "\\&" + body : body
    }

    /// Backslashes as `\e`, hyphens as `\-` (so they stay ASCII minus signs in options), and
    /// every non-ASCII character as `\[uXXXX]`, which any troff reads whatever its input encoding.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case _ where scalar.isASCII: result.unicodeScalars.append(scalar)
            default: result += "\\[u" + String(format: "%04X", scalar.value) + "]"
            }
        }
        return result
    }
}
