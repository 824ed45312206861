import Glibc
import Signals

/// The LED ring on Linux spidev: opens the device, sets SPI mode 0, 8 bits a word and the
/// encoding's clock, and sends each frame with one `write` (spidev makes one transfer of it,
/// so the WS2812 bit stream has no gaps between bytes).
///
/// A regular file stands in for the device (tests, dry runs): the bus settings are skipped and
/// each frame is appended. The only file that speaks to spidev.
public final class SPIRing: RingOutput {
    public let path: String
    public let encoder: any PixelEncoder
    private var fd: Int32 = -1
    public private(set) var framesWritten = 0

    // linux/spi/spidev.h: _IOW('k', nr, size) = 1 << 30 | size << 16 | 'k' << 8 | nr.
    static let wrMode: UInt = 0x4001_6B01
    static let wrBitsPerWord: UInt = 0x4001_6B03
    static let wrMaxSpeedHz: UInt = 0x4004_6B04

    /// Opens and configures the device at once, so a missing ring is a fault at start.
    public init(path: String, encoder: any PixelEncoder) throws {
        self.path = path
        self.encoder = encoder
        try openDevice()
    }

    deinit { closeDevice() }

    public var isOpen: Bool { fd >= 0 }

    /// Sends one frame; reopens the device first if a previous failure closed it.
    public func show(_ pixels: [RGB]) throws {
        if fd < 0 { try openDevice() }
        let bytes = encoder.encode(pixels)
        let n = try check({ .write(path: path, errno: $0) }) {
            bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
        guard n == bytes.count else {
            closeDevice()
            throw SPIRingError.shortWrite(path: path, wrote: n, of: bytes.count)
        }
        framesWritten += 1
    }

    private func openDevice() throws {
        fd = try check({ .open(path: path, errno: $0) }) { open(path, O_WRONLY | O_CLOEXEC | O_APPEND) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG { return }
        var mode: UInt8 = 0  // SPI mode 0: clock idles low, data sampled on the rising edge
        var bits: UInt8 = 8
        var speed = UInt32(encoder.clockHz)
        _ = try check({ .configure(path: path, setting: "SPI mode", errno: $0) }) { ioctl(fd, Self.wrMode, &mode) }
        _ = try check({ .configure(path: path, setting: "word size", errno: $0) }) { ioctl(fd, Self.wrBitsPerWord, &bits) }
        _ = try check({ .configure(path: path, setting: "clock of \(speed) Hz", errno: $0) }) {
            ioctl(fd, Self.wrMaxSpeedHz, &speed)
        }
    }

    private func closeDevice() {
        // close is never retried: on Linux the descriptor is gone even when it reports EINTR.
        if fd >= 0 { _ = close(fd) }
        fd = -1
    }

    /// The one place "-1 and errno" becomes a named error here. EINTR policy: open, write and
    /// ioctl are retried (a signal interrupted them before they did anything); any other failure
    /// closes the device, so the next frame reopens it.
    private func check<T: BinaryInteger>(_ named: (Int32) -> SPIRingError, _ body: () -> T) throws -> T {
        while true {
            let r = body()
            if r >= 0 { return r }
            let e = errno
            if e == EINTR { continue }
            closeDevice()
            throw named(e)
        }
    }
}
