import ActivityKit
import LiveTranscriberCore

// The core's attributes and content state are the ActivityKit types as they are: same fields,
// same JSON keys, so the widget decodes exactly what the core encodes and budgets (4 KB).
extension RecordingActivityAttributes: @retroactive ActivityAttributes {}
