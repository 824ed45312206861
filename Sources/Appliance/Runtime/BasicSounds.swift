import Signals
import WatchCore

/// The sounds until Signals' sound design table takes over: the alarm's 0.2 s buzz, a fault
/// pattern unlike it, and chirps that differ where outcomes must be told apart.
struct BasicSounds: SoundBook {
    var alarm: SoundPattern { SoundPattern([.init(3000, .milliseconds(200)), .init(nil, .milliseconds(200))], repeats: true) }
    var fault: SoundPattern {
        SoundPattern([.init(1000, .milliseconds(100)), .init(nil, .milliseconds(100)), .init(1000, .milliseconds(100)),
                      .init(nil, .milliseconds(100)), .init(1000, .milliseconds(100)), .init(nil, .seconds(10))], repeats: true)
    }
    func chirp(_ chirp: Chirp) -> SoundPattern {
        switch chirp {
        case .mark, .arm: SoundPattern([.init(2000, .milliseconds(80)), .init(nil, .milliseconds(60)), .init(2600, .milliseconds(120))])
        case .release, .disarm: SoundPattern([.init(2600, .milliseconds(80)), .init(nil, .milliseconds(60)), .init(2000, .milliseconds(120))])
        default: SoundPattern([.init(1500, .milliseconds(60))])
        }
    }
}
