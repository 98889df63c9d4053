import Foundation

/// One option of a command as help, the man page and completions describe it: a flag (`--json`)
/// or an option with a value (`--format srt`, `--format=srt`).
///
/// A command declares each option once, as a `Flag` or a `ValueOption` (`OptionSpec.flag`,
/// `.value`, `.choice`), lists that declaration in its `CommandSpec`, and reads it through the same
/// declaration (`ParsedArguments.flag(_:)`, `.value(_:)`, `.allValues(_:)`): there is no lookup by
/// a name written a second time.
public struct OptionSpec: Sendable, Equatable {
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

    /// A flag: given or not, no value; refused when given twice.
    public static func flag(_ name: String, _ help: String) -> Flag {
        Flag(spec: OptionSpec(name: name, valueName: nil, help: help, repeatable: false))
    }

    /// An option with a value; refused when given twice unless `repeatable`.
    public static func value(_ name: String, _ valueName: String, _ help: String, repeatable: Bool = false) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: valueName, help: help, repeatable: repeatable))
    }

    /// An option whose value is one of `choices`.
    public static func choice(_ name: String, _ valueName: String, _ help: String, choices: [String]) -> ValueOption {
        ValueOption(spec: OptionSpec(name: name, valueName: valueName, help: help, repeatable: false, choices: choices))
    }
}

/// A declared option that a `CommandSpec` lists: a `Flag` or a `ValueOption`.
public protocol CommandOption: Sendable {
    /// What help, the man page and completions say about it.
    var spec: OptionSpec { get }
}

extension CommandOption {
    /// Long name without dashes, such as "json".
    public var name: String { spec.name }
}

/// A flag (`--json`), read with `ParsedArguments.flag(_:)`. A distinct type from `ValueOption`, so
/// a flag cannot be read as a value nor a value as a flag.
public struct Flag: CommandOption, Equatable {
    public let spec: OptionSpec

    fileprivate init(spec: OptionSpec) {
        self.spec = spec
    }
}

/// An option with a value (`--format srt`), read with `ParsedArguments.value(_:)`, or
/// `allValues(_:)` when it is repeatable.
public struct ValueOption: CommandOption, Equatable {
    public let spec: OptionSpec

    fileprivate init(spec: OptionSpec) {
        self.spec = spec
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

    /// - Parameter usage: the usage line after `livetranscriber `, only where the generated one
    ///   (`generatedUsage`: the name, the arguments, then each option in brackets) cannot say it:
    ///   a required option, a value's choices, options that go together. Nil generates it.
    /// - Parameter options: the command's option declarations, in the order help lists them.
    public init(
        name: String, abstract: String, usage: String? = nil, arguments: [ArgumentSpec] = [],
        options: [any CommandOption] = [], discussion: String? = nil
    ) {
        self.name = name
        self.abstract = abstract
        self.arguments = arguments
        self.options = options.map { $0.spec }
        self.discussion = discussion
        self.usage = usage ?? Self.generatedUsage(name: name, arguments: arguments, options: self.options)
    }

    /// "NAME ARG... [--flag] [--option <value>] [--repeatable <value>]...": the usage line of a
    /// command whose arguments are all required and whose options are all optional and independent.
    public static func generatedUsage(name: String, arguments: [ArgumentSpec], options: [OptionSpec]) -> String {
        ([name] + arguments.map(\.name) + options.map { option in
            "[--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "") + "]" + (option.repeatable ? "..." : "")
        }).joined(separator: " ")
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
