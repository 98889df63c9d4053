import Foundation

/// How loud the input is, as a meter shows it: decibels, not raw amplitude, so speech moves the
/// bar and silence stays near empty.
public enum LevelMeter {
    /// The quietest level a meter shows, in dBFS; anything quieter reads as empty.
    public static let floorDecibels: Float = -60

    /// Decibels relative to full scale of an RMS level (1.0 is 0 dBFS); `floorDecibels` for
    /// silence, negative values and NaN.
    public static func decibels(rms: Float) -> Float {
        guard rms.isFinite, rms > 0 else { return floorDecibels }
        return max(floorDecibels, min(0, 20 * log10(rms)))
    }

    /// The filled fraction of a meter, 0 (at or below -60 dBFS) to 1 (0 dBFS), linear in decibels.
    public static func fraction(rms: Float) -> Float {
        (decibels(rms: rms) - floorDecibels) / -floorDecibels
    }
}
