import Foundation
import QuireTestSupport
import QuireWire
import Testing

@testable import QuireServer

/// What the libmicrohttpd host answers on its own, before a request reaches the core: every such
/// answer is the JSON error shape with `Content-Type: application/json` (issue 12, 9), and a
/// request that could smuggle a second one is refused (issue 12, 9).
struct HostErrorAnswerTests {
    let harness: ServerHarness
    let host: MicroHTTPServer

    init() async throws {
        harness = try ServerHarness()
        host = try MicroHTTPServer(core: harness.server, host: "127.0.0.1", port: 0)
    }

    /// Sends `raw` as is and reads until the server closes (or 5 s pass).
    private func exchange(_ raw: String) async -> (data: Data, closed: Bool) {
        await onThread { [port = host.port] in
            guard let socket = try? LoopbackSocket(port: port) else { return (Data(), false) }
            socket.send(raw)
            return socket.readToEnd(timeout: .seconds(5))
        }
    }

    /// A request with both Content-Length and chunked encoding: libmicrohttpd read the body as
    /// chunked, so the bytes a Content-Length reader would call body were served as a second
    /// request. It is refused with 400 and the connection closed; the second is never served.
    @Test func contentLengthWithChunkedEncodingIsRefusedAndNothingIsSmuggled() async throws {
        let smuggled = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let body = "0\r\n\r\n" + smuggled
        let answer = await exchange(
            "POST /v1/nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + body)

        let text = String(decoding: answer.data, as: UTF8.self)
        #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "answers: \(text)")
        #expect(!text.contains(#"{"status":"ok"}"#), "the smuggled request was served: \(text)")
        let parsed = try #require(LoopbackExchange.parse(answer.data), "answered: \(text)")
        #expect(parsed.status == 400)
        #expect(parsed.headers["content-type"] == "application/json")
        #expect(try JSONDecoder().decode(ErrorResponseDTO.self, from: parsed.body).error.code == "ambiguous_length")
        #expect(answer.closed)
        await host.stop()
    }

    /// Requests libmicrohttpd refuses itself (before the access handler runs): its HTML pages are
    /// replaced by the JSON error shape.
    @Test(arguments: [
        ("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nNoColonHere\r\n\r\n", 400),
        ("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 40_000))\r\n\r\n", 431),
        ("GET /\(String(repeating: "a", count: 40_000)) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 414),
        ("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x12\r\n\r\n", 400),
        ("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("PUT /v1/nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("GET /v1/health HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", 505),
    ])
    func libmicrohttpdsOwnRefusalsAreJSON(_ raw: String, _ status: Int) async throws {
        let answer = await exchange(raw)

        let text = String(decoding: answer.data.prefix(300), as: UTF8.self)
        let parsed = try #require(LoopbackExchange.parse(answer.data), "answered: \(text)")
        #expect(parsed.status == status, "answered: \(text)")
        #expect(parsed.headers["content-type"] == "application/json", "answered: \(text)")
        #expect(parsed.headers["x-content-type-options"] == "nosniff")
        // For a bad Content-Length this libmicrohttpd (0.9.75) writes its status line and headers
        // twice, so the body it declares begins with the second copy: the JSON follows it.
        let body = parsed.body.split(separator: Array("\r\n\r\n".utf8)).last ?? parsed.body
        let error = try JSONDecoder().decode(ErrorResponseDTO.self, from: Data(body)).error
        #expect(!error.code.isEmpty && !error.message.isEmpty)
        await host.stop()
    }
}
