// Trigonometry for the core, which imports the standard library only (no Glibc, no Foundation),
// so that every rule of the watch builds and tests the same everywhere. Accurate to a few ulps
// over the ranges geodesy uses; TrigTests compares against the C library.

@inline(__always) func sinDeg(_ deg: Double) -> Double { sinRad(deg * .pi / 180) }
@inline(__always) func cosDeg(_ deg: Double) -> Double { cosRad(deg * .pi / 180) }
@inline(__always) func atan2Deg(_ y: Double, _ x: Double) -> Double { atan2Rad(y, x) * 180 / .pi }

/// Reduces x to r in [-pi/4, pi/4] with x = r + k*pi/2 (Cody-Waite, two-part pi/2).
@inline(__always) private func reduce(_ x: Double) -> (r: Double, quadrant: Int) {
    let k = (x * (2 / Double.pi)).rounded()
    let pio2Hi = 1.570_796_326_734_125_614_17
    let pio2Lo = 6.077_100_506_506_192_249_0e-11
    let r = (x - k * pio2Hi) - k * pio2Lo
    let q = Int(k.truncatingRemainder(dividingBy: 4))
    return (r, (q + 4) % 4)
}

@inline(__always) private func sinKernel(_ r: Double) -> Double {
    let r2 = r * r
    // Taylor terms to r^17: the remainder at |r| = pi/4 is below 1e-19.
    var t = -1.0 / 355_687_428_096_000
    t = t * r2 + 1.0 / 1_307_674_368_000
    t = t * r2 - 1.0 / 6_227_020_800
    t = t * r2 + 1.0 / 39_916_800
    t = t * r2 - 1.0 / 362_880
    t = t * r2 + 1.0 / 5_040
    t = t * r2 - 1.0 / 120
    t = t * r2 + 1.0 / 6
    return r - r * r2 * t
}

@inline(__always) private func cosKernel(_ r: Double) -> Double {
    let r2 = r * r
    var t = 1.0 / 6_402_373_705_728_000
    t = t * r2 - 1.0 / 20_922_789_888_000
    t = t * r2 + 1.0 / 87_178_291_200
    t = t * r2 - 1.0 / 479_001_600
    t = t * r2 + 1.0 / 3_628_800
    t = t * r2 - 1.0 / 40_320
    t = t * r2 + 1.0 / 720
    t = t * r2 - 1.0 / 24
    t = t * r2 + 1.0 / 2
    return 1 - r2 * t
}

func sinRad(_ x: Double) -> Double {
    let (r, q) = reduce(x)
    switch q {
    case 0: return sinKernel(r)
    case 1: return cosKernel(r)
    case 2: return -sinKernel(r)
    default: return -cosKernel(r)
    }
}

func cosRad(_ x: Double) -> Double {
    let (r, q) = reduce(x)
    switch q {
    case 0: return cosKernel(r)
    case 1: return -sinKernel(r)
    case 2: return -cosKernel(r)
    default: return sinKernel(r)
    }
}

/// atan on [0, 1] by halving the argument twice (atan x = 2 atan(x / (1 + sqrt(1 + x^2)))),
/// which brings it under tan(pi/16) where the series converges fast.
private func atanUnit(_ x: Double) -> Double {
    var y = x
    for _ in 0..<2 { y = y / (1 + (1 + y * y).squareRoot()) }
    let y2 = y * y
    var sum = 0.0
    var k = 29.0
    while k >= 1 {
        sum = 1 / k - y2 * sum
        k -= 2
    }
    return 4 * y * sum
}

func atan2Rad(_ y: Double, _ x: Double) -> Double {
    if x == 0 && y == 0 { return 0 }
    let ax = abs(x), ay = abs(y)
    var a = ax >= ay ? atanUnit(ay / ax) : Double.pi / 2 - atanUnit(ax / ay)
    if x < 0 { a = Double.pi - a }
    return y < 0 ? -a : a
}

/// e^x for the evidence's decay (x <= 0 there, but any finite x works): x = n ln 2 + r with
/// |r| <= ln 2 / 2, e^r by its Taylor series to r^14 (remainder below 1e-17), scaled by 2^n.
func expCore(_ x: Double) -> Double {
    guard x.isFinite else { return x > 0 ? .infinity : 0 }
    if x < -745 { return 0 }
    if x > 709 { return .infinity }
    let ln2 = 0.693_147_180_559_945_309_4
    let n = (x / ln2).rounded()
    let r = x - n * ln2
    var t = 1.0
    var k = 14.0
    while k >= 1 {
        t = 1 + r * t / k
        k -= 1
    }
    return t * Double(sign: .plus, exponent: Int(n), significand: 1)
}
