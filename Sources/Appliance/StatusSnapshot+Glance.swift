import WatchCore

extension StatusSnapshot {
    /// What a skipper reads at a glance, beside the verdict: where the boat is, how far it has
    /// been, and the anchor as the swing shows it. Written by the box from `WatchStatus`; every
    /// field may be absent (unknown), and an older snapshot without them reads as all absent.
    struct Glance: Hashable, Sendable {
        struct Swing: Hashable, Sendable {
            var centre: Coordinate
            var uncertainty: Meters
            var swingRadius: Meters
            var arc: Double
            var settled: Bool
            var moving: Bool
            /// Settled long enough to be shown (`SwingEstimate.steady`); `arc` is the arc seen,
            /// which never goes down (`SwingEstimate.arcSeen`).
            var steady: Bool
        }

        struct Offer: Hashable, Sendable {
            var says: String
            var distance: Meters
            var bearing: Double
        }

        /// The boat's GPS antenna, at the last usable reading.
        var boat: Coordinate?
        /// The farthest the boat was from the mark since it was set.
        var farthest: Meters?
        var swing: Swing?
        var offer: Offer?
        var suggestedRadius: Meters?

        init() {}

        init(_ s: WatchStatus) {
            boat = s.boat
            farthest = s.farthest
            swing = s.swing.map {
                Swing(centre: $0.centre, uncertainty: $0.uncertainty, swingRadius: $0.swingRadius, arc: $0.arcSeen,
                      settled: $0.settled, moving: $0.moving, steady: $0.steady)
            }
            offer = s.swingOffer.map { Offer(says: $0.says, distance: $0.distance, bearing: $0.bearing) }
            suggestedRadius = s.suggestedRadius
        }

        /// What is worth a write at once: the swing's state changing and what it offers. The
        /// boat's position and the farthest distance move with every reading and wait for the
        /// steady write, like the distance. The writer decides from `Key`, taken from the
        /// watch's status without building the snapshot; the two say the same.
        struct Key: Hashable, Sendable {
            var swing: String?
            var offer: String?
            var suggestedRadius: Double?

            init(_ s: WatchStatus) {
                swing = s.swing.map(Key.state)
                offer = s.swingOffer?.says
                suggestedRadius = s.suggestedRadius?.value
            }

            /// `self == Key(s)`, without building the key.
            func same(as s: WatchStatus) -> Bool {
                guard suggestedRadius == s.suggestedRadius?.value, offer == s.swingOffer?.says else { return false }
                guard let e = s.swing else { return swing == nil }
                return swing == Key.state(e)
            }

            init(_ g: Glance) {
                swing = g.swing.map { Key.state(steady: $0.steady, moving: $0.moving) }
                offer = g.offer?.says
                suggestedRadius = g.suggestedRadius?.value
            }

            /// The state as shown: "learning" until the estimate is steady.
            static func state(_ e: SwingEstimate) -> String { state(steady: e.steady, moving: e.moving) }
            static func state(steady: Bool, moving: Bool) -> String { steady ? (moving ? "moving" : "settled") : "learning" }
        }

        var content: JSON {
            let key = Key(self)
            return .object([
                ("swing", .string(key.swing)),
                ("offer", .string(key.offer)),
                ("suggested_radius", .number(key.suggestedRadius)),
            ] as [(String, JSON?)])
        }

        /// The swing's fields; `boat` and `farthest_m` move with every reading and are written
        /// with the other live fields (`StatusSnapshot.Live`).
        var fields: [(String, JSON?)] {
            [
                ("swing", swing.map {
                    .object([
                        ("centre", Self.coordinate($0.centre)),
                        ("uncertainty_m", .number($0.uncertainty.value)),
                        ("swing_radius_m", .number($0.swingRadius.value)),
                        ("arc_deg", .number($0.arc)),
                        ("settled", .bool($0.settled)),
                        ("moving", .bool($0.moving)),
                        ("steady", .bool($0.steady)),
                    ] as [(String, JSON?)])
                }),
                ("swing_offer", offer.map {
                    .object([
                        ("says", .string($0.says)),
                        ("distance_m", .number($0.distance.value)),
                        ("bearing_deg", .number($0.bearing)),
                    ] as [(String, JSON?)])
                }),
                ("suggested_radius_m", .number(suggestedRadius?.value)),
            ]
        }

        static func coordinate(_ c: Coordinate) -> JSON {
            .object([("lat", .number(c.latitude)), ("lon", .number(c.longitude))])
        }

        static func coordinate(_ j: JSON?) -> Coordinate? {
            guard let j else { return nil }
            return Coordinate.validated(latitude: j["lat"]?.double ?? .nan, longitude: j["lon"]?.double ?? .nan)
        }

        /// Lenient: a malformed glance field is left out (unknown), never a reason to disbelieve
        /// the verdict beside it.
        init(json: JSON) {
            boat = Self.coordinate(json["boat"])
            farthest = json["farthest_m"]?.double.flatMap { $0.isFinite && $0 >= 0 ? Meters($0) : nil }
            if let s = json["swing"], let centre = Self.coordinate(s["centre"]),
                let u = s["uncertainty_m"]?.double, let r = s["swing_radius_m"]?.double, let arc = s["arc_deg"]?.double,
                let settled = s["settled"]?.bool, let moving = s["moving"]?.bool {
                // A snapshot written before "steady" existed showed a settled swing at once.
                swing = Swing(centre: centre, uncertainty: Meters(u), swingRadius: Meters(r), arc: arc,
                              settled: settled, moving: moving, steady: s["steady"]?.bool ?? settled)
            }
            if let o = json["swing_offer"], let says = o["says"]?.string, let d = o["distance_m"]?.double,
                let b = o["bearing_deg"]?.double {
                offer = Offer(says: says, distance: Meters(d), bearing: b)
            }
            suggestedRadius = json["suggested_radius_m"]?.double.flatMap { $0.isFinite && $0 > 0 ? Meters($0) : nil }
        }
    }
}

/// Positions as a chartplotter shows them: degrees and decimal minutes, hemisphere last
/// ("54°20.478'N 013°30.390'E").
enum ChartPosition {
    static func text(_ c: Coordinate) -> String {
        "\(part(c.latitude, width: 2, positive: "N", negative: "S")) \(part(c.longitude, width: 3, positive: "E", negative: "W"))"
    }

    static func part(_ value: Double, width: Int, positive: String, negative: String) -> String {
        let thousandths = Int((abs(value) * 60_000).rounded())
        let degrees = thousandths / 60_000
        let minutes = thousandths % 60_000
        var d = "\(degrees)"
        while d.count < width { d = "0" + d }
        let whole = minutes / 1000, frac = minutes % 1000
        let m = (whole < 10 ? "0" : "") + "\(whole)." + (frac < 100 ? "0" : "") + (frac < 10 ? "0" : "") + "\(frac)"
        return "\(d)°\(m)'\(value < 0 ? negative : positive)"
    }
}
