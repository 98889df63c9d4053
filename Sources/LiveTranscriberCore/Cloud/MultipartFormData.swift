import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and one or more files.
public struct MultipartFormData: Sendable {
    /// The boundary between parts; never occurs in a field value.
    public let boundary: String
    private var body = Data()

    public init(boundary: String = "LiveTranscriber-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// The Content-Type header value, with the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a text field.
    public mutating func addField(_ name: String, _ value: String) {
        append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escaped(name))\"\r\n\r\n\(value)\r\n")
    }

    /// Adds a file part with its file name and media type.
    public mutating func addFile(_ name: String, fileName: String, contentType: String, data: Data) {
        append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(escaped(name))\"; filename=\"\(escaped(fileName))\"\r\n")
        append("Content-Type: \(contentType)\r\n\r\n")
        body.append(data)
        append("\r\n")
    }

    /// The finished body, with the closing boundary.
    public func finished() -> Data {
        var result = body
        result.append(Data("--\(boundary)--\r\n".utf8))
        return result
    }

    private mutating func append(_ text: String) { body.append(Data(text.utf8)) }

    private func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
    }
}
