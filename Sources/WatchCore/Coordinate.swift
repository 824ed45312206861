/// A position on WGS84, in degrees. Only finite, in-range values are ever built from outside
/// data: readers use `Coordinate.validated`.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// nil unless both are finite and in range: NaN, infinities and "gone mad" values stop here.
    public static func validated(latitude: Double, longitude: Double) -> Coordinate? {
        guard latitude.isFinite, longitude.isFinite,
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    public var description: String {
        "\(Self.fixed(latitude, 6)),\(Self.fixed(longitude, 6))"
    }

    /// Fixed-point text without Foundation's String(format:).
    static func fixed(_ x: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let negative = x < 0
        let n = Int64((abs(x) * scale).rounded())
        let whole = n / Int64(scale)
        var frac = String(n % Int64(scale))
        while frac.count < digits { frac = "0" + frac }
        return (negative && n != 0 ? "-" : "") + "\(whole)" + (digits > 0 ? "." + frac : "")
    }
}
