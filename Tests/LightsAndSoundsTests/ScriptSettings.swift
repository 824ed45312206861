import WatchCore

extension WatchSettings {
    /// The evidence rule the scripted nights of these tests were written against, stated here
    /// so that benchmark-chosen defaults can change without changing what the tests script.
    static var scripted: WatchSettings {
        var s = WatchSettings()
        // A short evidence rule with a fixed 3 m wander: a fix 10 m beyond the radius adds
        // 10 / 3 - 1 = 2.3 a second, so a scripted drag rings a few seconds after it leaves.
        s.window = .seconds(10)
        s.confirmation = .seconds(8)
        s.fastest = .seconds(3)
        s.deadband = 1
        s.noiseFloor = 3
        s.noisePrior = 3
        return s
    }
}
