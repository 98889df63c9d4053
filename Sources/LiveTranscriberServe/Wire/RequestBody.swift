import Foundation

/// A JSON request body the API takes: its keys are `CodingKeys`, and a key it does not know is
/// refused rather than ignored (a misspelt `"translat": true` once started a transcribe-again).
protocol RequestBody: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension RequestBody {
    /// The body in `data`, a JSON object whose keys are all `CodingKeys`.
    /// - Throws: `RequestBodyRefused` with one sentence: not JSON of this shape, or a key it does not take.
    static func decoded(from data: Data) throws -> Self {
        let keys = CodingKeys.allCases.map(\.stringValue)
        let shape = "the body is not the JSON this request takes (see docs/serve.md)"
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw RequestBodyRefused(message: shape) }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw RequestBodyRefused(message: "the body has a key this request does not take, '\(unknown)'; it takes "
                + keys.map { "'\($0)'" }.joined(separator: ", ") + " (see docs/serve.md)")
        }
        do {
            return try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw RequestBodyRefused(message: shape)
        }
    }
}

/// Why a request body was refused (400), one sentence.
struct RequestBodyRefused: Error {
    var message: String
}
