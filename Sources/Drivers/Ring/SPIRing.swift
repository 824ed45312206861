import Posix
import LightsAndSounds

/// The LED ring on Linux spidev: opens the device, sets SPI mode 0, 8 bits a word and the
/// encoding's clock, and sends each frame with one `write` (spidev makes one transfer of it,
/// so the WS2812 bit stream has no gaps between bytes).
///
/// A regular file stands in for the device (tests, dry runs): the bus settings are skipped and
/// each frame is appended. The only file that speaks to spidev.
public final class SPIRing: RingOutput {
    public let path: String
    public let encoder: any PixelEncoder
    private var device: FileDescriptor?
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

    public var isOpen: Bool { device != nil }

    /// Sends one frame; reopens the device first if a previous failure closed it.
    public func show(_ pixels: [RGB]) throws {
        if device == nil { try openDevice() }
        guard let device else { return }
        let bytes = encoder.encode(pixels)
        let n = try named({ .write(path: path, errno: $0) }) { try bytes.withUnsafeBytes { try device.write($0) } }
        guard n == bytes.count else {
            closeDevice()
            throw SPIRingError.shortWrite(path: path, wrote: n, of: bytes.count)
        }
        framesWritten += 1
    }

    private func openDevice() throws {
        let fd = try named({ .open(path: path, errno: $0) }) { try FileDescriptor.open(path, [.writeOnly, .append]) }
        device = fd
        if (try? fd.kind()) == .regular { return }
        var mode: UInt8 = 0  // SPI mode 0: clock idles low, data sampled on the rising edge
        var bits: UInt8 = 8
        var speed = UInt32(encoder.clockHz)
        try named({ .configure(path: path, setting: "SPI mode", errno: $0) }) { try fd.control(Self.wrMode, &mode) }
        try named({ .configure(path: path, setting: "word size", errno: $0) }) { try fd.control(Self.wrBitsPerWord, &bits) }
        try named({ .configure(path: path, setting: "clock of \(speed) Hz", errno: $0) }) { try fd.control(Self.wrMaxSpeedHz, &speed) }
    }

    private func closeDevice() {
        device?.close()
        device = nil
    }

    /// The room's error as the ring's named one (EINTR was retried there); any failure closes
    /// the device, so the next frame reopens it.
    @discardableResult
    private func named<T>(_ name: (Errno) -> SPIRingError, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let e as SystemError {
            closeDevice()
            throw name(e.errno)
        }
    }
}
