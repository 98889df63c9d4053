import Foundation
import LiveTranscriberCore

/// The core's `HTTPTransport` over Apple's URLSession: one request, one response, no retries (the
/// core's `HTTPClient` retries as `RetryPolicy` says), no cache, no cookies. The Linux transport
/// (Sources/LiveTranscriberLinux/Cloud) does the same over FoundationNetworking; the conformance
/// suite `HTTPTransportConformanceTests` states the contract both keep.
///
/// `send` blocks its thread until the answer arrives, so it is only called from the background
/// work the library screen starts (`runBlocking`), never from the main actor.
final class URLSessionHTTPTransport: HTTPTransport {
    private let session: URLSession

    /// - Parameter timeoutSeconds: Longest silence on a connection before it fails (uploads can be slow).
    init(timeoutSeconds: Double = 300) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.urlCache = nil
        configuration.waitsForConnectivity = false
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` and waits for the answer.
    ///
    /// - Returns: The response, whatever its status, with lower-cased header names.
    /// - Throws: URLSession's `URLError` when no response arrived.
    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }

        let answer = BlockingResult<HTTPResponse>()
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
                answer.finish(.failure(error))
            } else if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                answer.finish(.success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())))
            } else {
                answer.finish(.failure(URLError(.badServerResponse)))
            }
        }
        task.resume()
        return try answer.wait()
    }
}
