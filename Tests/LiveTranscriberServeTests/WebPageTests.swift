import Foundation
@testable import LiveTranscriberServe
import Testing

@Suite("The page's files, compiled into the program")
struct WebPageTests {
    static let token = String(repeating: "3f", count: 32)

    @Test("the document carries the token once in its meta element, the Live view's section, and no placeholder")
    func document() {
        let html = WebPage.html(token: Self.token)
        #expect(html.hasPrefix("<!doctype html>\n"))
        #expect(html.components(separatedBy: Self.token).count == 2)
        #expect(html.contains(#"<meta name="lt-token" content="\#(Self.token)">"#))
        #expect(html.contains(#"<section id="live-view" aria-labelledby="live-title" hidden>"#))
        #expect(!html.contains("{{"))
    }

    @Test("both scripts hold the shared element helper once, in place of its placeholder", arguments: ["app.js", "live.js"])
    func scripts(name: String) {
        let script = name == "app.js" ? WebPage.javascript : WebPage.liveJavascript
        #expect(script.hasPrefix("\"use strict\";\n"))
        #expect(script.components(separatedBy: "function element(tag, attributes, ...children) {").count == 2)
        #expect(!script.contains("{{"))
    }

    @Test("the style sheet is the library's, then the Live view's")
    func styleSheet() {
        #expect(WebPage.css.hasPrefix("[hidden] { display: none !important; }\n:root {\n"))
        #expect(WebPage.css.contains(".live-cards { display: grid; gap: 1.25rem; }"))
        #expect(!WebPage.css.contains("{{"))
    }

    @Test("no Swift source of the module holds markup: the page is only in Page/")
    func noMarkupInSwift() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/LiveTranscriberServe").standardizedFileURL
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for tag in ["<section", "<div", "<script", "function ", "<!doctype"] {
                #expect(!source.contains(tag), "\(file) holds \(tag)")
            }
        }
    }
}
