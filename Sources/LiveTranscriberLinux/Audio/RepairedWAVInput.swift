import CSndFile
import Foundation
import Glibc
import LiveTranscriberCore

/// A WAV or RF64 file whose header a writer never finished (a `data` size of 0 or 0xFFFFFFFF, or
/// more than the file holds), read as `sox --ignore-length` reads it: the audio is every whole
/// frame after the `data` header. The file itself is never changed: libsndfile reads it through
/// virtual I/O that shows the repaired sizes (`WAVHeaderRepair`'s patches) over the bytes on disk.
final class RepairedWAVInput {
    /// The layout the repaired header describes.
    let layout: WAVLayout
    private let descriptor: Int32
    /// Length of the file as repaired (a torn last frame cut off, a pad byte added).
    private let length: Int64
    /// Length of the file on disk.
    private let diskLength: Int64
    private let patches: [WAVPatch]
    private var position: Int64 = 0

    /// The repair `path` needs, or nil when it is not WAV or its header is finished.
    static func unfinishedHeader(at path: String) -> (layout: WAVLayout, patches: [WAVPatch], fileSize: UInt64)? {
        guard let reader = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? reader.close() }
        guard let size = try? reader.seekToEnd(),
              let plan = try? WAVHeaderRepair.plan(fileSize: size, read: { offset, count in
                  try reader.seek(toOffset: offset)
                  return try reader.read(upToCount: count) ?? Data()
              }),
              case .repair(let layout, let patches, let fileSize) = plan,
              layout.headerWasUnfinished(fileSize: size)
        else { return nil }
        return (layout, patches, fileSize)
    }

    /// Opens `path` with its header repaired in memory; nil when it needs no repair.
    init?(path: String) {
        guard let repair = Self.unfinishedHeader(at: path) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        fstat(descriptor, &status)
        self.descriptor = descriptor
        self.layout = repair.layout
        self.patches = repair.patches
        self.length = Int64(repair.fileSize)
        self.diskLength = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    /// Opens the repaired file with libsndfile. Keep this object alive while the handle is used.
    func openSndFile(_ info: inout SF_INFO) -> OpaquePointer? {
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in Unmanaged<RepairedWAVInput>.fromOpaque(user!).takeUnretainedValue().length },
            seek: { offset, whence, user in Unmanaged<RepairedWAVInput>.fromOpaque(user!).takeUnretainedValue().seek(offset, whence) },
            read: { pointer, count, user in
                Unmanaged<RepairedWAVInput>.fromOpaque(user!).takeUnretainedValue().read(into: pointer!, count: count)
            },
            write: { _, _, _ in 0 },
            tell: { user in Unmanaged<RepairedWAVInput>.fromOpaque(user!).takeUnretainedValue().position }
        )
        return sf_open_virtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(self).toOpaque())
    }

    private func seek(_ offset: sf_count_t, _ whence: Int32) -> sf_count_t {
        switch whence {
        case SEEK_SET: position = offset
        case SEEK_CUR: position += offset
        case SEEK_END: position = length + offset
        default: return -1
        }
        position = max(0, min(position, length))
        return position
    }

    /// Reads from the disk, zeros past its end (the pad byte), then lays the patches over it.
    private func read(into pointer: UnsafeMutableRawPointer, count: sf_count_t) -> sf_count_t {
        let wanted = Int(max(0, min(count, length - position)))
        guard wanted > 0 else { return 0 }
        let fromDisk = Int(max(0, min(Int64(wanted), diskLength - position)))
        var got = 0
        while got < fromDisk {
            let result = pread(descriptor, pointer + got, fromDisk - got, off_t(position) + off_t(got))
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { break }
            got += result
        }
        if got < fromDisk { return got > 0 ? sf_count_t(got) : -1 }
        if wanted > fromDisk { memset(pointer + fromDisk, 0, wanted - fromDisk) }
        let start = UInt64(position), end = UInt64(position) + UInt64(wanted)
        for patch in patches {
            for (index, byte) in patch.bytes.enumerated() {
                let at = patch.offset + UInt64(index)
                if at >= start && at < end { pointer.storeBytes(of: byte, toByteOffset: Int(at - start), as: UInt8.self) }
            }
        }
        position += Int64(wanted)
        return sf_count_t(wanted)
    }
}
