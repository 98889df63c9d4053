import Foundation
// The only file of the package that imports FoundationNetworking (libcurl underneath): everything
// else about the cloud clients is in the core, so targets that never talk to a server do not link it.
import FoundationNetworking
import LiveTranscriberCore
import Synchronization

/// The core's `HTTPTransport` over FoundationNetworking's URLSession: one request, one response,
/// no retries (`HTTPClient` retries), no cache, no cookies.
public final class URLSessionHTTPTransport: HTTPTransport {
    private let session: URLSession

    /// - Parameter timeoutSeconds: Longest silence on a connection before it fails (uploads can be slow).
    public init(timeoutSeconds: Double = 300) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// The answer, written by URLSession's completion handler (its own queue) before `done` is
    /// signalled, read after the wait.
    private final class Box: Sendable {
        let result = Mutex<Result<HTTPResponse, any Error>>(.failure(URLError(.unknown)))
    }

    /// Sends `request` and waits for the answer.
    ///
    /// - Returns: The response, whatever its status, with lower-cased header names.
    /// - Throws: URLSession's `URLError` when no response arrived.
    public func send(_ request: HTTPRequest) throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }

        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: urlRequest) { data, response, error in
            if let error {
                box.result.withLock { $0 = .failure(error) }
            } else if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                box.result.withLock { $0 = .success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data())) }
            } else {
                box.result.withLock { $0 = .failure(URLError(.badServerResponse)) }
            }
            done.signal()
        }
        task.resume()
        done.wait()
        return try box.result.withLock { $0 }.get()
    }
}
