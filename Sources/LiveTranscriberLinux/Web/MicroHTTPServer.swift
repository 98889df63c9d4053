import CMicroHTTPD
import Foundation
import LiveTranscriberCore

/// An HTTP server around GNU libmicrohttpd: it listens on one address, reads each request (body
/// bounded by `maximumBodyBytes`), hands it to `handler` as a `WebRequest` on the connection's
/// own thread, and sends the `WebResponse` back (a file body straight from the file). Stopping it
/// (deinit) closes the socket and waits for requests under way to finish.
public final class MicroHTTPServer {
    /// Answers one request; called on several threads at once (one per connection).
    public typealias Handler = @Sendable (WebRequest) -> WebResponse

    /// Why the server could not start.
    public enum StartError: Error, Equatable, CustomStringConvertible {
        /// The address is not an IPv4 or IPv6 address.
        case notAnAddress(String)
        /// The socket could not be bound (the port is taken, the address is not this machine's).
        case cannotListen(host: String, port: Int, reason: String)

        public var description: String {
            switch self {
            case .notAnAddress(let host):
                return "'\(host)' is not an IP address; give one such as 127.0.0.1, 0.0.0.0 or ::1"
            case .cannotListen(let host, let port, let reason):
                return "cannot listen on \(host) port \(port): \(reason)"
            }
        }
    }

    /// The TCP port the server listens on (the system's choice when started with port 0).
    public let port: Int
    private let daemon: OpaquePointer
    private let context: Unmanaged<ServerContext>

    /// Starts listening on `host` (an IP address) and `port` (0: any free port).
    /// - Throws: `StartError`.
    public init(host: String, port: Int, maximumBodyBytes: Int, handler: @escaping Handler) throws {
        let context = Unmanaged.passRetained(ServerContext(handler: handler, maximumBodyBytes: maximumBodyBytes))
        var notAnAddress: Int32 = 0
        errno = 0
        guard let daemon = lt_mhd_start(host, UInt16(clamping: port), microHTTPAccess, context.toOpaque(),
                                        microHTTPCompleted, &notAnAddress) else {
            let reason = String(cString: strerror(errno == 0 ? EADDRINUSE : errno))
            context.release()
            throw notAnAddress != 0 ? StartError.notAnAddress(host) : StartError.cannotListen(host: host, port: port, reason: reason)
        }
        self.daemon = daemon
        self.context = context
        self.port = Int(lt_mhd_bound_port(daemon))
    }

    deinit {
        MHD_stop_daemon(daemon)
        context.release()
    }
}

/// What every connection thread reads: the handler and the body limit. Immutable.
private final class ServerContext: Sendable {
    let handler: MicroHTTPServer.Handler
    let maximumBodyBytes: Int

    init(handler: @escaping MicroHTTPServer.Handler, maximumBodyBytes: Int) {
        self.handler = handler
        self.maximumBodyBytes = maximumBodyBytes
    }
}

/// One request being read, kept in libmicrohttpd's per-request pointer from its first call to
/// its completion (only its connection's thread touches it).
private final class PendingRequest {
    var body = Data()
    var tooLarge = false
}

/// Header fields or query arguments being collected by `MHD_get_connection_values`.
private final class ValueCollector {
    var values: [String: String] = [:]
    let lowercasingKeys: Bool
    /// True to percent-decode names and values (query arguments).
    let decoding: Bool
    init(lowercasingKeys: Bool, decoding: Bool) {
        self.lowercasingKeys = lowercasingKeys
        self.decoding = decoding
    }
}

/// The header fields (`HEADER_KIND`) or the query arguments (`GET_ARGUMENT_KIND`, which arrive
/// undecoded, `lt_mhd_keep_escaped`) of the request, the arguments' names and values decoded by
/// `WebRequest.percentDecoded` (so a `%00` is kept, never an end of the text).
private func collectValues(_ connection: OpaquePointer?, kind: MHD_ValueKind, lowercasingKeys: Bool) -> [String: String] {
    let collector = ValueCollector(lowercasingKeys: lowercasingKeys, decoding: kind == .GET_ARGUMENT_KIND)
    withExtendedLifetime(collector) {
        _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
            guard let cls, let key else { return .YES }
            let collector = Unmanaged<ValueCollector>.fromOpaque(cls).takeUnretainedValue()
            var name = String(cString: key)
            var text = value.map { String(cString: $0) } ?? ""
            if collector.decoding {
                name = WebRequest.percentDecoded(name)
                text = WebRequest.percentDecoded(text)
            }
            if collector.lowercasingKeys { name = name.lowercased() }
            // The first value wins, for a repeated header as for a repeated query argument.
            if collector.values[name] == nil { collector.values[name] = text }
            return .YES
        }, Unmanaged.passUnretained(collector).toOpaque())
    }
    return collector.values
}

private func send(_ response: WebResponse, on connection: OpaquePointer?) -> MHD_Result {
    var created: OpaquePointer?
    switch response.body {
    case .data(let data):
        created = data.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
    case .file(let path, let offset, let length):
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            // libmicrohttpd closes the descriptor when the response is destroyed.
            created = MHD_create_response_from_fd_at_offset64(length, descriptor, offset)
            if created == nil { close(descriptor) }
        }
        if created == nil {
            return send(.error(500, "the file could not be read"), on: connection)
        }
    case .stream(let stream):
        // Chunked, of unknown length; the reader owns the stream until libmicrohttpd frees it.
        let reader = Unmanaged.passRetained(StreamReader(stream)).toOpaque()
        created = MHD_create_response_from_callback(UInt64.max, 4096, streamRead, reader, streamFree)
        if created == nil { Unmanaged<StreamReader>.fromOpaque(reader).release() }
    }
    guard let created else { return .NO }
    for (name, value) in response.headers {
        _ = MHD_add_response_header(created, name, value)
    }
    let result = MHD_queue_response(connection, UInt32(response.status), created)
    MHD_destroy_response(created)
    return result
}

/// A `WebStream` being sent: the bytes of its last piece not yet taken by libmicrohttpd. Only the
/// connection's thread touches it.
private final class StreamReader {
    let stream: WebStream
    var pending = Data()
    init(_ stream: WebStream) { self.stream = stream }
}

/// libmicrohttpd's content reader for a stream: copies what is pending, waiting on the stream
/// (on the connection's own thread) for more when nothing is. -1 ends the body.
private let streamRead: MHD_ContentReaderCallback = { cls, _, buffer, maximum in
    guard let cls, let buffer else { return -1 }
    let reader = Unmanaged<StreamReader>.fromOpaque(cls).takeUnretainedValue()
    while reader.pending.isEmpty {
        guard let next = reader.stream.next() else { return -1 }
        reader.pending = next
    }
    let count = min(maximum, reader.pending.count)
    reader.pending.withUnsafeBytes { bytes in UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress!, byteCount: count) }
    reader.pending = Data(reader.pending.dropFirst(count))
    return count
}

private let streamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamReader>.fromOpaque(cls).release()
}

/// libmicrohttpd's access handler: called first with the headers, then with each piece of the
/// body, then once more with none, when the request is answered.
private let microHTTPAccess: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, requestContext in
    guard let cls, let requestContext, let uploadSize else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let stored = requestContext.pointee else {
        // The first call: only the headers are in. A body announced too large is refused at once.
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length").map({ String(cString: $0) }),
           let bytes = Int(length), bytes > context.maximumBodyBytes {
            return send(.error(413, "the request body is larger than \(context.maximumBodyBytes) bytes"), on: connection)
        }
        requestContext.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
        lt_mhd_head_received(connection)  // the head is in: the request's own, longer timeout
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(stored).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if let uploadData, !pending.tooLarge {
            if pending.body.count + uploadSize.pointee > context.maximumBodyBytes {
                pending.tooLarge = true
                pending.body = Data()
            } else {
                pending.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
            }
        }
        uploadSize.pointee = 0
        return .YES
    }
    if pending.tooLarge {
        return send(.error(413, "the request body is larger than \(context.maximumBodyBytes) bytes"), on: connection)
    }
    let request = WebRequest(
        method: method.map { String(cString: $0) }?.uppercased() ?? "GET",
        path: WebRequest.percentDecoded(url.map { String(cString: $0) } ?? "/"),
        query: collectValues(connection, kind: .GET_ARGUMENT_KIND, lowercasingKeys: false),
        headers: collectValues(connection, kind: .HEADER_KIND, lowercasingKeys: true),
        body: pending.body)
    return send(context.handler(request), on: connection)
}

/// libmicrohttpd's completion callback: frees the request's `PendingRequest`.
private let microHTTPCompleted: MHD_RequestCompletedCallback = { _, connection, requestContext, _ in
    lt_mhd_request_done(connection)  // the next request on this connection gets the head's short timeout
    guard let requestContext, let stored = requestContext.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(stored).release()
    requestContext.pointee = nil
}
