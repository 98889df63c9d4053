import Foundation
@testable import LiveTranscriberCLI
@testable import LiveTranscriberLibraryCLI
import LiveTranscriberCore
import LiveTranscriberServe
import Testing

/// Options are declared once (`Flag`, `ValueOption`), listed in the command's spec and read
/// through the same declaration; these tests check what the compiler cannot: that every option a
/// command reads is in its spec, that flags and values follow one rule for repeats, and the
/// usage lines made from the declarations.
@Suite("Command option declarations")
struct CommandOptionDeclarationTests {
    /// The shortest valid line of each command (after its name), by command name.
    static let minimalLines: [String: [String]] = [
        "record": [], "import": ["a.wav"], "list": [], "show": ["x"], "search": ["words"],
        "export": ["x", "--format", "txt"], "rename": ["x", "New name"], "tag": ["x"], "speaker": ["x"],
        "delete": ["x"], "summarize": ["x"], "retranscribe": ["x"], "recover": [], "reindex": [], "serve": [],
        "activity preview": ["--out", "previews"], "completion": ["bash"], "manpage": [],
    ]

    /// Every command of both programs: the full program's list and the light program's.
    static let entries: [CommandEntry] = fullProgram.commands + LibraryCommands.light

    /// The minimal line, then the minimal line with each option it lacks added (a flag alone, a
    /// value option with its first choice or "1"), so the reads each option leads to are made too.
    static func lines(for spec: CommandSpec, minimal: [String]) -> [[String]] {
        [minimal] + spec.options.filter { !minimal.contains("--" + $0.name) }.map { option in
            minimal + ["--" + option.name] + (option.valueName == nil ? [] : [option.choices.first ?? "1"])
        }
    }

    @Test("every option each command of both programs reads is one its spec declares")
    func everyReadIsDeclared() throws {
        #expect(Set(Self.entries.map(\.spec.name)) == Set(Self.minimalLines.keys))
        for entry in Self.entries {
            let minimal = try #require(Self.minimalLines[entry.spec.name], "no minimal line for \(entry.spec.name)")
            let parsedMinimal = try ParsedArguments(minimal, spec: entry.spec)
            #expect(throws: Never.self, "\(entry.spec.name) \(minimal)") { _ = try entry.make(parsedMinimal) }
            for line in Self.lines(for: entry.spec, minimal: minimal) {
                let parsed = try ParsedArguments(line, spec: entry.spec)
                // A value the command refuses ends its reads there; those made before count.
                _ = try? entry.make(parsed)
                #expect(parsed.undeclaredReads == [], "\(entry.spec.name) \(line)")
            }
        }
    }

    @Test("reading an option the spec does not list, or another declaration of the same name, reads nothing and is recorded")
    func undeclaredReadIsRecorded() throws {
        let json = OptionSpec.flag("json", "Print JSON.")
        let limit = OptionSpec.value("limit", "n", "At most this many.")
        let spec = CommandSpec(name: "probe", abstract: "A probe.", options: [json, limit])
        let parsed = try ParsedArguments(["--json", "--limit", "3"], spec: spec)
        #expect(parsed.flag(json))
        #expect(parsed.value(limit) == "3")
        #expect(parsed.undeclaredReads == [])

        let otherJSON = OptionSpec.flag("json", "Print JSON, said differently.")
        let offset = OptionSpec.value("offset", "n", "Skip this many.")
        #expect(!parsed.flag(otherJSON))
        #expect(parsed.value(offset) == nil)
        #expect(parsed.allValues(offset) == [])
        #expect(parsed.undeclaredReads == ["json", "offset", "offset"])
    }

    @Test("a flag given twice is refused as a value option given twice is", arguments: [
        (["--json", "--json"], "error: option '--json' given more than once\n"),
        (["--limit", "1", "--limit", "2"], "error: option '--limit' given more than once\n"),
    ])
    func givenTwice(arguments: [String], message: String) {
        let run = runMain(["list"] + arguments)
        #expect(run.code == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == message
            + "usage: livetranscriber list [--tag <tag>] [--since <date>] [--limit <n>] [--offset <n>] [--json]\n"
            + "See 'livetranscriber list --help'.\n")
    }

    @Test("a repeatable option given twice keeps both values, in order")
    func repeatable() throws {
        let parsed = try ParsedArguments(["x", "--add", "a", "--add", "b,c"], spec: TagCommand.spec)
        #expect(parsed.allValues(TagCommand.add) == ["a", "b,c"])
        #expect(parsed.allValues(TagCommand.remove) == [])
        #expect(throws: UsageError("option '--purge' given more than once")) {
            try ParsedArguments(["x", "--purge", "--purge"], spec: DeleteCommand.spec)
        }
    }

    @Test("a usage line that is only the name, the arguments and the options is made from the declarations", arguments: [
        ("list", "list [--tag <tag>] [--since <date>] [--limit <n>] [--offset <n>] [--json]"),
        ("show", "show <id> [--json]"),
        ("search", "search <query> [--limit <n>] [--offset <n>] [--json]"),
        ("rename", "rename <id> <name> [--json]"),
        ("tag", "tag <id> [--add <tags>]... [--remove <tags>]... [--json]"),
        ("delete", "delete <id> [--purge] [--json]"),
        ("recover", "recover [--json]"),
        ("reindex", "reindex [--json]"),
        ("serve", "serve [--port <n>] [--host <address>] [--open] [--record-input <file>]"),
        ("manpage", "manpage"),
    ])
    func generatedUsage(name: String, usage: String) throws {
        let spec = try #require(Self.entries.first { $0.spec.name == name }?.spec)
        #expect(spec.usage == usage)
        #expect(CommandSpec.generatedUsage(name: spec.name, arguments: spec.arguments, options: spec.options) == usage)
        #expect(spec.helpText.contains("\nUSAGE: livetranscriber \(usage)\n"))
    }

    @Test("every option of every command is named in its usage line, hand-written or made")
    func usageNamesEveryOption() {
        for entry in Self.entries {
            let words = Set(entry.spec.usage.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init))
            for option in entry.spec.options {
                #expect(words.contains("--" + option.name), "\(entry.spec.name): --\(option.name) is not in '\(entry.spec.usage)'")
            }
        }
    }
}
