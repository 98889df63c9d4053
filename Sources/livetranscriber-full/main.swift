import Foundation
import LiveTranscriberCLI

// A closed pipe on stdout (`livetranscriber record | head -1`) must not kill a recording: the write
// fails instead, the recording is saved, and the failure is reported at the end.
signal(SIGPIPE, SIG_IGN)
exit(LiveTranscriberCommandLine.main(LiveTranscriberCommandLine.processArguments))
