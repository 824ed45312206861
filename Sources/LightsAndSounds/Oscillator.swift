/// Sine of a phase given in turns (1 turn = 2 pi), standard library only: the ring's throb and
/// the siren's tones need nothing more precise than about 1e-11.
public func sineTurns(_ turns: Double) -> Double {
    var t = turns - turns.rounded(.down)  // 0 ..< 1
    // Fold onto -1/4 ... 1/4 turn, where the series converges fast.
    if t > 0.75 { t -= 1 } else if t > 0.25 { t = 0.5 - t }
    let x = t * 2 * Double.pi
    let x2 = x * x
    var s = 1.0 / 355_687_428_096_000  // 1/17!
    s = s * -x2 + 1.0 / 1_307_674_368_000
    s = s * -x2 + 1.0 / 6_227_020_800
    s = s * -x2 + 1.0 / 39_916_800
    s = s * -x2 + 1.0 / 362_880
    s = s * -x2 + 1.0 / 5_040
    s = s * -x2 + 1.0 / 120
    s = s * -x2 + 1.0 / 6
    s = s * -x2 + 1
    return x * s
}
