import Foundation
import Synchronization

/// Arguments after the subcommand word, checked against its `CommandSpec`.
///
/// Options are read through their declarations (`flag(_:)` takes a `Flag`, `value(_:)` and
/// `allValues(_:)` a `ValueOption`), never by a name: a misspelt option does not compile, and a
/// flag cannot be read as a value. What the type system cannot see is an option declared but
/// left out of the command's spec (or a shared option read by a command that does not take it):
/// the arguments keep the spec they were parsed for, and reading an option it does not declare
/// is a programming error. It reads nothing (as an option not given) and is recorded in
/// `undeclaredReads`, which the tests check for every registered command of both programs
/// (`CommandOptionDeclarationTests`, and every command run through the tests' `runCommand`).
public struct ParsedArguments: Sendable {
    /// Arguments that are not options, in order.
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// True when `-h` or `--help` was given.
    public private(set) var wantsHelp = false
    /// The options of the spec these arguments were parsed for.
    private let declared: [OptionSpec]
    private let undeclared = UndeclaredReads()

    /// The names of the options read that the spec does not declare, in the order read (a
    /// programming error; empty when every read is declared).
    package var undeclaredReads: [String] { undeclared.names }

    /// Parses `arguments` for `spec`.
    ///
    /// Accepts `--name value`, `--name=value`, and `--` to end options. A lone `-` is a positional
    /// (standard input). Throws `UsageError` for an unknown option, a missing value, a value given
    /// to a flag, an empty value (`--device ""`: every option's value names something), or a
    /// non-repeatable option (a flag or a value) given twice.
    public init(_ arguments: [String], spec: CommandSpec) throws {
        declared = spec.options
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                wantsHelp = true
                continue
            }
            guard argument.hasPrefix("--") else {
                throw UsageError("unknown option '\(argument)'")
            }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.name == name }) else {
                throw UsageError("unknown option '--\(name)'")
            }
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value") }
                if flags.contains(name) && !option.repeatable {
                    throw UsageError("option '--\(name)' given more than once")
                }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("missing value for '--\(name)'") }
                value = arguments[index]
                index += 1
            }
            if value.isEmpty { throw UsageError("'--\(name)' needs a value; it was given an empty one") }
            if values[name] != nil && !option.repeatable {
                throw UsageError("option '--\(name)' given more than once")
            }
            values[name, default: []].append(value)
        }
    }

    /// The value of `option`, if given.
    public func value(_ option: ValueOption) -> String? {
        declares(option) ? values[option.name]?.last : nil
    }

    /// Every value of a repeatable `option`, in order.
    public func allValues(_ option: ValueOption) -> [String] {
        declares(option) ? values[option.name] ?? [] : []
    }

    /// True when the flag `option` was given.
    public func flag(_ option: Flag) -> Bool {
        declares(option) && flags.contains(option.name)
    }

    /// True when the spec lists this very declaration (not only an option of the same name);
    /// otherwise records the read in `undeclaredReads`.
    private func declares(_ option: some CommandOption) -> Bool {
        if declared.contains(option.spec) { return true }
        undeclared.add(option.name)
        return false
    }

    /// Throws `UsageError` unless there are between `min` and `max` positionals.
    public func expectPositionals(_ names: String, min: Int, max: Int) throws {
        if positionals.count < min { throw UsageError("missing \(names)") }
        if positionals.count > max {
            throw UsageError("unexpected argument '\(positionals[max])'")
        }
    }
}

/// The options read that a spec does not declare (`ParsedArguments.undeclaredReads`): a reference,
/// so reading (which does not change the arguments) can record them.
private final class UndeclaredReads: Sendable {
    private let list = Mutex<[String]>([])

    var names: [String] { list.withLock { $0 } }

    func add(_ name: String) { list.withLock { $0.append(name) } }
}
