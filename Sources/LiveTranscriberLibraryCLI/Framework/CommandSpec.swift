import Foundation

/// One option of a command: a flag (`--json`) or an option with a value (`--format srt`, `--format=srt`).
public struct OptionSpec: Sendable {
    /// Long name without dashes, such as "format".
    public var name: String
    /// Name of the value in help text ("FORMAT"); nil for a flag.
    public var valueName: String?
    /// One line of help.
    public var help: String
    /// True when the option may be given more than once (`--add a --add b`).
    public var repeatable: Bool
    /// The values the option accepts when they are a fixed set (`txt`, `md`…), for shell completion;
    /// empty for a free value (a path, a name, a number).
    public var choices: [String] = []

    public static func flag(_ name: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, help: help, repeatable: false)
    }

    public static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, repeatable: repeatable)
    }

    /// An option whose value is one of `choices`.
    public static func choice(_ name: String, _ valueName: String, _ help: String, choices: [String]) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, help: help, repeatable: false, choices: choices)
    }
}

/// A positional argument, for help text.
public struct ArgumentSpec: Sendable {
    public var name: String
    public var help: String

    public init(_ name: String, _ help: String) {
        self.name = name
        self.help = help
    }
}

/// What a command is called, what it does and what it accepts: the source of its `--help`.
public struct CommandSpec: Sendable {
    /// The subcommand word ("record"), or words for nested commands ("activity preview").
    public var name: String
    /// One line saying what the command does.
    public var abstract: String
    /// The usage line after `livetranscriber `.
    public var usage: String
    public var arguments: [ArgumentSpec]
    public var options: [OptionSpec]
    /// Extra paragraphs printed after the options.
    public var discussion: String?

    public init(
        name: String, abstract: String, usage: String, arguments: [ArgumentSpec] = [],
        options: [OptionSpec] = [], discussion: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }

    /// The help text: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
    public var helpText: String {
        var text = "OVERVIEW: \(abstract)\n\nUSAGE: livetranscriber \(usage)\n"
        if !arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in arguments {
                text += "  " + pad(argument.name) + argument.help + "\n"
            }
        }
        text += "\nOPTIONS:\n"
        for option in options {
            let label = "--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
            text += "  " + pad(label) + option.help + "\n"
        }
        text += "  " + pad("-h, --help") + "Show help information.\n"
        if let discussion { text += "\n" + discussion + "\n" }
        return text
    }

    private func pad(_ label: String) -> String {
        label.count >= 24 ? label + "\n" + String(repeating: " ", count: 26) : label.padding(toLength: 24, withPad: " ", startingAt: 0)
    }
}

/// A mistake in how the command was called: printed with a hint to use `--help`, exit code 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
