/// What a ``FrameBlock`` holds: how many frames, and how many bytes they have together.
struct FrameBlockHeader {
    let frameCount: Int
    let byteCount: Int
}

/// The frames of messages received in one turn of the I/O loop, in one allocation: each frame's
/// end offset (an `Int` each), then every frame's bytes, back to back.
///
/// The messages of the batch share it (``Message``'s shared storage), so a received frame costs a
/// copy into the block instead of an allocation of its own on the I/O thread and a free on the
/// consumer's.
///
/// Written once, in ``make(bytes:ends:)``, before the block is returned, and only read after (what
/// lets ``Message`` send it across threads; `ManagedBuffer` itself is never `Sendable`).
final class FrameBlock: ManagedBuffer<FrameBlockHeader, Int> {
    /// A block of `ends.count` frames whose bytes are `bytes`, frame `i` ending at `ends[i]`.
    static func make(bytes: UnsafeRawBufferPointer, ends: UnsafeBufferPointer<Int>) -> FrameBlock {
        let words = ends.count + (bytes.count + 7) / 8
        let block = unsafeDowncast(
            create(minimumCapacity: max(1, words)) { _ in FrameBlockHeader(frameCount: ends.count, byteCount: bytes.count) },
            to: FrameBlock.self)
        block.withUnsafeMutablePointerToElements { elements in
            if let base = ends.baseAddress { elements.update(from: base, count: ends.count) }
            if let source = bytes.baseAddress {
                UnsafeMutableRawPointer(elements + ends.count).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        return block
    }

    /// The bytes of frame `index`, valid while the block lives.
    @inline(__always)
    func withFrame<R, E: Error>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try withUnsafeMutablePointers { (header, elements) throws(E) -> R in
            assert(index >= 0 && index < header.pointee.frameCount, "frame \(index) of a block of \(header.pointee.frameCount)")
            let start = index == 0 ? 0 : elements[index - 1]
            let end = elements[index]
            let bytes = UnsafeRawPointer(elements + header.pointee.frameCount) + start
            return try body(UnsafeRawBufferPointer(start: bytes, count: end - start))
        }
    }

    /// The bytes of frames `start..<start + count` together.
    func byteCount(ofFrames start: Int, count: Int) -> Int {
        guard count > 0 else { return 0 }
        return withUnsafeMutablePointerToElements { elements in
            elements[start + count - 1] - (start == 0 ? 0 : elements[start - 1])
        }
    }
}
