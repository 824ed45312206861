/// What `test-alarm` shows on the ring: every colour role in turn on the whole ring, at working
/// brightness, then the alarm's full brightness. A skipper checking the box before a night sees
/// each pixel light in each colour, so a dead pixel or a wrong colour order shows at once.
public enum RingTestPattern {
    public static let step: Duration = .milliseconds(400)

    public static func frames(settings: RingSettings) -> [[RGB]] {
        let layout = RingLayout(settings)
        let roles: [PaletteRole] = [.holding, .attention, .danger, .neutral, .cantJudge]
        var frames = roles.map { role in
            layout.toWire(Array(repeating: Gamma.drive(role.sRGB, brightness: settings.workingBrightness), count: layout.count))
        }
        frames.append(layout.toWire(Array(repeating: Gamma.drive(PaletteRole.danger.sRGB, brightness: RingSettings.ringingBrightness),
                                          count: layout.count)))
        frames.append(Array(repeating: .black, count: layout.count))
        return frames
    }
}
