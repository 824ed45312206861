/// The ESP32 ePaper anchor alarm's weighted accumulator: on each wake, a fix outside adds
/// 10 x (distance / radius - 1) to a counter (10% over adds 1, 100% over adds 10), a fix inside
/// clears it, and the alarm sounds when the counter reaches the threshold.
///
/// Source read: 88markus88/ESP32_Anchor_Alarm, `src/ePaperAnchorAlarm.cpp` (`updatewData`) and
/// `src/global.h` (defaults: `d_alertThreshold 10`; `targetMeasurementIntervalSec = 20`, the
/// deep-sleep period between wakes, so it judges one fix every 20 s).
struct EpaperAccumulatorRule: PeerRule {
    static let threshold = 10.0
    static let wakeInterval = 20.0
    private var count = 0.0
    private var nextWake = 0.0

    mutating func take(t: Double, offset: Offset?, radius: Double) -> Bool {
        guard let distance = offset?.length, t >= nextWake else { return false }
        nextWake = t + EpaperAccumulatorRule.wakeInterval
        if distance > radius {
            count += 10 * (distance / radius - 1)
        } else {
            count = 0
        }
        return count >= EpaperAccumulatorRule.threshold
    }
}
