import Foundation
import LiveTranscriberCore
import LiveTranscriberTerminal
import Testing

extension LiveActivityTests {
    @Suite("SVG previews")
    struct ActivitySVGRendererTests {
        let recording = Fixture.content(transcript: "Tom & Jerry <said> \"hi\" 'there'", count: 2)

        @Test("the Lock Screen card has its size, status, timer, transcript, footer and stop button")
        func lockScreen() {
            let svg = ActivitySVGRenderer.lockScreen(
                LockScreenPresentation(attributes: Fixture.attributes, content: recording), elapsedSeconds: 90)
            #expect(svg.contains(#"width="364" height="160""#))
            #expect(svg.contains(##"fill="#FF3B30"/>"##))
            #expect(svg.contains(">Recording</text>"))
            #expect(svg.contains(">1:30</text>"))
            #expect(svg.contains("Tom &amp; Jerry &lt;said&gt; &quot;hi&quot; &apos;there&apos;"))
            #expect(svg.contains(">en-US</text>"))
            #expect(svg.contains(">2</text>"))
            #expect(svg.contains(#"<g id="stop">"#))
        }

        @Test("paused: amber dot, fixed time, no stop button; private hides the transcript")
        func pausedPrivate() {
            let paused = Fixture.content(.paused, elapsed: 3909, transcript: "secret words")
            let svg = ActivitySVGRenderer.lockScreen(
                LockScreenPresentation(attributes: Fixture.attributes, content: paused,
                                       settings: PresentationSettings(hideTranscriptOnLockScreen: true)), elapsedSeconds: 5)
            #expect(svg.contains("#FF9F0A"))
            #expect(svg.contains(">1:05:09</text>"))
            #expect(!svg.contains(#"<g id="stop">"#))
            #expect(!svg.contains("secret"))
            #expect(svg.contains("Transcript hidden on Lock Screen"))
        }

        @Test("island sizes", arguments: [
            ("expanded", #"width="371" height="160""#), ("compact", #"width="126" height="37""#), ("minimal", #"width="37" height="37""#),
        ])
        func sizes(kind: String, size: String) {
            let svg = switch kind {
            case "expanded": ActivitySVGRenderer.expandedIsland(
                ExpandedIslandPresentation(attributes: Fixture.attributes, content: recording), elapsedSeconds: 3909)
            case "compact": ActivitySVGRenderer.compactIsland(CompactIslandPresentation(content: recording), elapsedSeconds: 3909)
            default: ActivitySVGRenderer.minimalIsland(MinimalIslandPresentation(content: recording))
            }
            #expect(svg.hasPrefix("<?xml"))
            #expect(svg.contains(size))
            #expect(svg.hasSuffix("</svg>\n"))
            if kind == "compact" { #expect(svg.contains(">1h05</text>")) }
            if kind == "expanded" { #expect(svg.contains(">1:05:09</text>")) }
        }

        @Test("XML escaping drops control characters", arguments: [
            ("a&b", "a&amp;b"), ("<x>", "&lt;x&gt;"), ("\u{7}bell", "bell"), ("tab\tok", "tab\tok"), ("é👍🏽", "é👍🏽"),
        ])
        func escape(text: String, expected: String) {
            #expect(ActivitySVGRenderer.escape(text) == expected)
        }
    }
}
