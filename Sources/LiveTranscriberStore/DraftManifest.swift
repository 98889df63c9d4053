import Foundation
import LiveTranscriberCore

/// `draft.json`: what a draft folder needs to become a recording after a crash.
struct DraftManifest: Codable, Equatable {
    var id: String
    var createdAt: Date
    var language: String
    var audio: AudioDescription
    var name: String?
    var tags: [String]?
    /// The recognizer's vocabulary, kept for a recovered recording; nil for none (and in drafts
    /// written before it was kept).
    var vocabulary: [String]?
}
