import Foundation

/// The page `livetranscriber serve` shows: one HTML document, its style sheet and its two
/// scripts, the files in `Page/` compiled into the program (SwiftPM's `embedInCode` rule: no
/// resource bundle to install, nothing fetched from elsewhere). The scripts draw what the API
/// answers and keep no rule of their own: the rows, the words, the moments the highlight moves
/// (`PlaybackTranscript`), dates, durations and pages (`LibraryPage`) all come from the core; the
/// Live view (`live.js`, `#/live`) draws `LiveRecordingView.Card` and the SVG previews.
///
/// Two placeholders, filled here and nowhere else: `{{token}}` in `index.html` (the access token,
/// 64 hex digits, so nothing needs escaping) and `/* {{element.js}} */` in both scripts (the one
/// node-building helper they share, `element.js`).
enum WebPage {
    /// The document, with the access token in a meta element for the script's changing requests
    /// (only a request that already carried the token is given the page).
    /// - Parameter token: `WebAccess.token`, 64 lowercase hex digits.
    static func html(token: String) -> String {
        document.replacingOccurrences(of: "{{token}}", with: token)
    }

    /// `/app.css`: the library's style sheet, then the Live view's.
    static let css = text(PackageResources.page_css) + text(PackageResources.live_css)

    /// `/app.js`: the Library and Recording views.
    static let javascript = withElement(text(PackageResources.app_js))

    /// `/live.js`: the Live view.
    static let liveJavascript = withElement(text(PackageResources.live_js))

    private static let document = text(PackageResources.index_html)

    /// `element("li", {class: "row", text: "…", "aria-label": "…"}, child…)` (text as text, never as
    /// HTML), without the file's last newline.
    private static let elementFunction: String = {
        let source = text(PackageResources.element_js)
        return source.hasSuffix("\n") ? String(source.dropLast()) : source
    }()

    private static func withElement(_ script: String) -> String {
        script.replacingOccurrences(of: "/* {{element.js}} */", with: elementFunction)
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
