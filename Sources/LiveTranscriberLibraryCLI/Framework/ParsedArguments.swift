import Foundation

/// Arguments after the subcommand word, checked against its `CommandSpec`.
public struct ParsedArguments: Sendable {
    /// Arguments that are not options, in order.
    public private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]
    private var flags: Set<String> = []
    /// True when `-h` or `--help` was given.
    public private(set) var wantsHelp = false

    /// Parses `arguments` for `spec`.
    ///
    /// Accepts `--name value`, `--name=value`, and `--` to end options. A lone `-` is a positional
    /// (standard input). Throws `UsageError` for an unknown option, a missing value, a value given
    /// to a flag, an empty value (`--device ""`: every option's value names something), or a
    /// non-repeatable option given twice.
    public init(_ arguments: [String], spec: CommandSpec) throws {
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

    /// The value of `--name`, if given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable `--name`, in order.
    public func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// True when the flag `--name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Throws `UsageError` unless there are between `min` and `max` positionals.
    public func expectPositionals(_ names: String, min: Int, max: Int) throws {
        if positionals.count < min { throw UsageError("missing \(names)") }
        if positionals.count > max {
            throw UsageError("unexpected argument '\(positionals[max])'")
        }
    }
}
