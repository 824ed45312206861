#if canImport(Glibc)
import Glibc
#endif

/// atan2 in degrees.
func atan2Degrees(_ y: Double, _ x: Double) -> Double { atan2(y, x) * 180 / .pi }
