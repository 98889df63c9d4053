import Foundation
import LiveTranscriberCore
import Testing

@Suite("Output language inference")
struct OutputLanguageTests {
    @Test("the transcript's script decides; the hint settles shared scripts", arguments: [
        ("我们今天讨论了新产品的发布计划", "en-US", "zh", "Chinese"),
        ("我们今天讨论了新产品的发布计划", "zh-TW", "zh-TW", "Chinese"),
        ("今日は新しい製品の発売について話しました", "en-US", "ja", "Japanese"),
        ("カタカナだけのテキスト", "zh-CN", "ja", "Japanese"),
        ("오늘 우리는 새로운 제품 출시에 대해 논의했습니다", "en-US", "ko", "Korean"),
        ("Сегодня мы обсудили запуск продукта", "en-US", "ru", "Russian"),
        ("Сьогодні ми обговорили запуск продукту", "uk-UA", "uk-UA", "Ukrainian"),
        ("ناقشنا اليوم إطلاق المنتج", "en-US", "ar", "Arabic"),
        ("امروز درباره عرضه محصول صحبت کردیم", "fa-IR", "fa-IR", "Persian"),
        ("Nous avons parlé du lancement", "fr-FR", "fr-FR", "French"),
        ("We talked about the launch", "zh-CN", "en", "English"),
        ("We talked about the launch", "en-GB", "en-GB", "English"),
        ("12345 🎉 !!!", "de-DE", "de-DE", "German"),
        ("12345", "xx", "en", "English"),
        ("The 会议 was 关于新产品的发布计划和预算", "en-US", "zh", "Chinese"),
    ])
    func infer(text: String, hint: String, code: String, name: String) {
        let language = OutputLanguage.infer(from: text, hint: hint)
        #expect(language.code == code)
        #expect(language.name == name)
    }

    @Test("an answer is accepted only in the expected script, and for Latin languages without another's function words", arguments: [
        ("fr", "The team discussed the launch and the budget for this year.", false),
        ("fr", "L'équipe a discuté du lancement et du budget pour cette année.", true),
        ("en", "L'équipe a discuté du lancement et des budgets pour les projets dans le pays.", false),
        ("de", "Das Team hat über den Start und das Budget für dieses Jahr gesprochen.", true),
        ("de", "The team discussed the launch and the budget for this year.", false),
        ("pt-BR", "A equipe discutiu o lançamento e o orçamento para este ano.", true),
        ("zh", "我们讨论了产品发布。", true),
        ("zh", "We discussed the launch.", false),
        ("zh", "今日は製品について話しました。", false),
        ("ja", "今日は製品について話しました。", true),
        ("ja", "我们讨论了产品发布。", false),
        ("en", "We discussed the launch.", true),
        ("fr", "We discussed the launch.", true),
        ("ru", "Мы обсудили запуск.", true),
        ("ru", "We discussed the launch.", false),
        ("ko", "제품 출시를 논의했습니다.", true),
    ])
    func accepts(code: String, answer: String, expected: Bool) throws {
        let language = try #require(OutputLanguage(tag: code))
        #expect(language.accepts(answer) == expected)
    }
}
