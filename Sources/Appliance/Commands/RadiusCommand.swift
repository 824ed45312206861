import Posix
import WatchCore

/// `anchor-alert radius`: set the alert radius, in meters or from the rode and the depth.
enum RadiusCommand: Command {
    static let name = "radius"
    static let summary = "Set the alert radius: in meters, or from rode and depth"
    static let help = """
        Usage: anchor-alert radius METERS [options]
               anchor-alert radius --rode M --depth M [options]

        Sets the alert radius (5 to 500 meters): 30, 30m or 30 m.

          --rode M             rode let out, in meters
          --depth M            depth of water at high tide, plus the bow roller's height
                               above the water, in meters

        From rode and depth, the radius is the rode's reach along the bottom plus the
        distance from the bow roller to the GPS antenna, rounded up to whole meters:
            alert radius = sqrt(rode² - depth²) + boat.bow_offset
        boat.bow_offset comes from the configuration (default 1 m), capped at boat.length
        (default 10 m): the antenna is on the boat.
        \(DecisionHelp.common)
        """

    /// The formula, pure, for tests and for the printed working.
    static func fromRode(_ rode: Double, depth: Double, bowOffset: Double, boatLength: Double) -> (radius: Meters, reach: Double, offset: Double)? {
        guard rode > depth, depth >= 0 else { return nil }
        let reach = (rode * rode - depth * depth).squareRoot()
        let offset = min(bowOffset, boatLength)
        return (Meters((reach + offset).rounded(.up)), reach, offset)
    }

    static func run(_ args: [String]) -> Int32 {
        var a = Arguments(args)
        return DecisionHelp.send(name, &a) { options, a in
            let rode = try a.meters("--rode")
            let depth = try a.meters("--depth")
            // "30", "30m", or "30 m" as the shell splits it into two arguments.
            var rest = try a.finish(maxPositionals: 2)
            if rest.count == 2 {
                guard rest[1] == "m" else { throw Arguments.UsageError(description: "unexpected argument \(rest[1])") }
                rest = [rest[0] + "m"]
            }
            switch (rest.first, rode, depth) {
            case (let text?, nil, nil):
                guard let m = Arguments.meters(text) else {
                    throw Arguments.UsageError(description: "radius needs meters, not \"\(text)\"")
                }
                return .setRadius(Meters(m))
            case (nil, let r?, let d?):
                let c = options.configuration
                guard let result = fromRode(r, depth: d, bowOffset: c.boat.bowOffset, boatLength: c.boat.length) else {
                    throw Arguments.UsageError(description: "the rode must be longer than the depth")
                }
                Console.out("Alert radius from rode and depth: \(FixedPoint.fixed(result.reach, 1)) m along the bottom"
                    + " + \(FixedPoint.fixed(result.offset, 1)) m bow to antenna = \(result.radius)")
                return .setRadius(result.radius)
            default:
                throw Arguments.UsageError(description: "give METERS, or --rode and --depth")
            }
        }
    }
}
