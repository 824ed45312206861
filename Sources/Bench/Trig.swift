import Posix

/// atan2 in degrees.
func atan2Degrees(_ y: Double, _ x: Double) -> Double { Math.atan2(y, x) * 180 / .pi }
