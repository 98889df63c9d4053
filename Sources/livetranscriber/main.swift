import Foundation
import LiveTranscriberCLI

exit(LiveTranscriberCommandLine.main(Array(CommandLine.arguments.dropFirst())))
