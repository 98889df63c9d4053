import Foundation
import LiveTranscriberCore

/// How much audio a WAV or RF64 file holds, from its chunk headers alone, for the duration rule
/// (`Recording.duration(_:audioSeconds:)`).
///
/// The store reads this itself, with the core's RIFF chunk walk (`WAVHeaderRepair.plan`, the one
/// the crash repair uses), so every program that opens the library applies the rule to WAV the
/// same way, whether or not it links an audio library (the light `livetranscriber` links none).
/// Other formats are the platform's audio reader's (`AudioFileMeasuring.statedSeconds`).
public enum WAVFileLength {
    /// Seconds of audio in the WAV or RF64 file at `url`: the whole frames its `data` chunk holds
    /// as far as the file's length bears them out (the sizes a repair would write, so a stated
    /// size past the end of the file, or a placeholder such as 0 or 0xFFFFFFFF, counts the bytes
    /// present). The file is never changed and its audio never read: one read of 8 to 16 bytes
    /// per chunk header, up to `data` and after it.
    /// - Returns: nil when the store cannot tell and another reader should: not RIFF/RF64 WAVE, a
    ///   file that cannot be opened or read, a WAV header without `fmt ` or `data` or rate, or a
    ///   compressed encoding such as ADPCM (its frames are not its bytes over the block size).
    public static func seconds(of url: URL) -> Double? {
        // Any failure (not WAV, a header without its chunks, a failed read) leaves the answer to
        // the platform's reader, which says nil too when it cannot read the file either.
        seconds(of: try? WAVFileRepair.plan(url))
    }

    /// The seconds of a file of `fileSize` bytes read through `read` (up to `count` bytes at
    /// `offset`, fewer at the end), as `seconds(of:)` reads a file on disk.
    static func seconds(fileSize: UInt64, read: (UInt64, Int) throws -> Data) -> Double? {
        seconds(of: try? WAVHeaderRepair.plan(fileSize: fileSize, read: read))
    }

    private static func seconds(of plan: WAVRepairPlan?) -> Double? {
        guard let layout = plan?.layout, layout.isUncompressed, layout.sampleRate > 0 else { return nil }
        return layout.durationSeconds
    }
}
