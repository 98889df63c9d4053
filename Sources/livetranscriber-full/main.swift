import Foundation
import LiveTranscriberCLI
import LiveTranscriberServe

// A closed pipe on stdout (`livetranscriber record | head -1`) must not kill a recording: the write
// fails instead, the recording is saved, and the failure is reported at the end.
signal(SIGPIPE, SIG_IGN)
// `serve` is its own module; this program, which ships it, registers it (docs/architecture.md).
let program = LiveTranscriberCommandLine(serve: ServeCommand.entry)
exit(program.main(LiveTranscriberCommandLine.processArguments))
