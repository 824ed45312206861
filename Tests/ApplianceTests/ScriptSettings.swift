import WatchCore

extension WatchSettings {
    /// The evidence rule the scripted nights of these tests were written against, stated here
    /// so that benchmark-chosen defaults can change without changing what the tests script.
    static var scripted: WatchSettings {
        var s = WatchSettings()
        s.window = .seconds(10)
        s.confirmation = .seconds(5)
        s.majority = 0.8
        s.accuracyWeight = 0.2
        s.driftSpan = .zero
        return s
    }
}
