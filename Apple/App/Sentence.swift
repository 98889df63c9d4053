/// Core error texts read as the end of a sentence ("a tag is longer than 100 characters.");
/// a form shows them as a sentence of their own.
enum Sentence {
    static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
