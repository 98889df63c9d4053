import Foundation
import LiveTranscriberCore
import Testing

@Suite("Offline summary and keyword tags")
struct ExtractiveSummarizerTests {
    static func segments(_ texts: [String]) -> [TranscriptSegment] {
        texts.enumerated().map { TranscriptSegment(text: $1, startSeconds: Double($0), endSeconds: Double($0) + 1) }
    }

    @Test("picks the sentence densest in recurring terms and tags by frequency")
    func english() {
        let result = ExtractiveSummarizer().summarize(segments: Self.segments([
            "Okay so um let's get started.",
            "The budget for the marketing campaign is too small.",
            "We should move budget from travel to the marketing campaign.",
            "Yeah I think that's right.",
            "The campaign starts in March.",
        ]), languageHint: "en-US")
        #expect(result.summary == "We should move budget from travel to the marketing campaign.")
        #expect(result.tags == ["campaign", "budget", "marketing"])
        #expect(result.engine == "offline")
        #expect(result.language == OutputLanguage(tag: "en-US"))
    }

    @Test("Chinese: pairs of Han characters between function characters become terms")
    func chinese() {
        let result = ExtractiveSummarizer().summarize(segments: Self.segments([
            "今天我们讨论产品发布。",
            "产品发布的时间是下周。",
            "预算还没有确定。",
        ]), languageHint: "en-US")
        #expect(result.summary == "今天我们讨论产品发布。")
        #expect(result.tags == ["产品", "发布", "今天"])
        #expect(result.language.name == "Chinese")
    }

    @Test("terms per script", arguments: [
        ("The team's budgets and the budget", ["team", "budgets", "budget"]),
        ("人工智能的发展", ["人工", "工智", "智能", "发展"]),
        ("コンピューターを使う", ["コンピューター"]),
        ("Москва и Петербург", ["москва", "петербург"]),
        ("2024 was 🎉 great", ["great"]),
    ])
    func terms(text: String, expected: [String]) {
        #expect(KeywordExtractor.terms(in: text) == expected)
    }

    @Test("German function words such as und are never tags")
    func germanStopWords() {
        let segments = ["Und Herr Dashwood und seine Frau und der Sohn reisten nach London.",
                        "Und in London wartete der Bruder von Herrn Dashwood und seine Familie."]
            .enumerated().map { TranscriptSegment(text: $1, startSeconds: Double($0), endSeconds: Double($0) + 1) }
        let tags = ExtractiveSummarizer().summarize(segments: segments, languageHint: "de").tags
        #expect(!tags.contains("und") && !tags.contains("der"))
        #expect(tags.contains("dashwood") && tags.contains("london"))
    }

    @Test("plurals count with their singular")
    func plurals() {
        #expect(KeywordExtractor.tags(from: ["model models model tests test"], count: 2) == ["model", "test"])
    }

    @Test("empty input gives an empty summary and no tags")
    func empty() {
        let result = ExtractiveSummarizer().summarize(segments: [], languageHint: "fr-FR")
        #expect(result.summary == "")
        #expect(result.tags == [])
        #expect(result.language.name == "French")
    }

    @Test("a long sentence is cut at a space and marked with an ellipsis")
    func truncation() {
        let long = Array(repeating: "word", count: 80).joined(separator: " ")
        let result = ExtractiveSummarizer(maximumCharacters: 20).summarize(segments: Self.segments([long]), languageHint: "en")
        #expect(result.summary == "word word word word…")
    }
}
