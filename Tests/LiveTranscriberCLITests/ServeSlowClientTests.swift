import Foundation
import Glibc
import LiveTranscriberCore
import Testing

/// B73 (issue 39, from berthubert/trifecta#43): connections that send half a request head and
/// wait must not lock the server out for everybody else.
@Suite("Serve holds against slow clients", .serialized)
struct ServeSlowClientTests {
    /// A TCP connection from `source` (127.0.0.1, or another loopback address) to 127.0.0.1:`port`
    /// that sends `text` and then waits; -1 when refused.
    static func halfOpen(port: Int, source: String, text: String) -> Int32 {
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, connected == 0 else {
            close(fd)
            return -1
        }
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        return fd
    }

    @Test("300 connections that send half a request head and wait, from the token holder's own address or another: the token holder's request is answered within 2 s, and the server closes the slow ones within seconds",
          arguments: ["127.0.0.1", "127.0.0.2"])
    func halfSentHeadsDoNotLockOutATokenHolder(source: String) throws {
        let library = try ServedLibrary()
        let server = try RunningServer(library)
        let slow = (0..<300).map { _ in Self.halfOpen(port: server.port, source: source, text: "GET /api/recordings HTTP/1.1\r\nHost: 127.0.0") }
        defer { for fd in slow where fd >= 0 { close(fd) } }
        // Loopback is bounded by the total (1,024) only, not the 64 of one address elsewhere.
        #expect(slow.filter { $0 >= 0 }.count == 300)
        let started = Date()
        let reply = try server.get("/api/recordings")
        let seconds = Date().timeIntervalSince(started)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(seconds < 2, "answered after \(seconds) s")
        // The half-sent heads are closed by the server after 5 s without the rest of the head.
        Thread.sleep(forTimeInterval: 7)
        var buffer = [UInt8](repeating: 0, count: 16)
        let closed = slow.filter { $0 >= 0 }.filter { fd in
            var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let count = recv(fd, &buffer, buffer.count, 0)
            // 0: closed by the server; -1 with a reset: refused at once; -1 with EAGAIN: still open.
            return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
        }
        #expect(closed.count == slow.filter { $0 >= 0 }.count, "\(closed.count) of \(slow.filter { $0 >= 0 }.count) closed")
    }
}
