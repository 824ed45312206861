import Posix
import WatchCore

/// A night as GPX 1.1 (topografix.com/GPX/1/1), which OpenCPN and every chart plotter opens:
/// the anchor and each alarm as waypoints, the track as one track with a segment per
/// uninterrupted stretch. Elements follow the schema's order (metadata, wpt, trk; within a
/// point: time, then name, desc, sym).
enum GPXWriter {
    static func gpx(_ night: NightTrack) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="Anchor Alert" xmlns="http://www.topografix.com/GPX/1/1" \
        xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">

        """
        let all = night.segments.flatMap { $0 }.map(\.position) + (night.anchor.map { [$0] } ?? [])
        out += "  <metadata>\n"
        out += "    <name>\(XMLText.escape(night.title))</name>\n"
        if let r = night.radius { out += "    <desc>Alert radius: \(r)</desc>\n" }
        out += "    <time>\(night.from.iso8601)</time>\n"
        if let minLat = all.map(\.latitude).min(), let maxLat = all.map(\.latitude).max(),
            let minLon = all.map(\.longitude).min(), let maxLon = all.map(\.longitude).max() {
            out += "    <bounds minlat=\"\(deg(minLat))\" minlon=\"\(deg(minLon))\" maxlat=\"\(deg(maxLat))\" maxlon=\"\(deg(maxLon))\"/>\n"
        }
        out += "  </metadata>\n"
        if let a = night.anchor {
            out += "  <wpt lat=\"\(deg(a.latitude))\" lon=\"\(deg(a.longitude))\">\n"
            out += "    <name>Anchor</name>\n"
            if let r = night.radius { out += "    <desc>Alert radius: \(r)</desc>\n" }
            out += "    <sym>anchor</sym>\n"
            out += "  </wpt>\n"
        }
        for (i, ring) in night.rings.enumerated() {
            guard let p = ring.position else { continue }
            out += "  <wpt lat=\"\(deg(p.latitude))\" lon=\"\(deg(p.longitude))\">\n"
            out += "    <time>\(ring.at.iso8601)</time>\n"
            out += "    <name>\(alarmName(i, ring))</name>\n"
            if let d = ring.distance { out += "    <desc>Alarm: \(d) from the anchor</desc>\n" }
            out += "  </wpt>\n"
        }
        out += "  <trk>\n    <name>\(XMLText.escape(night.title))</name>\n"
        for segment in night.segments {
            out += "    <trkseg>\n"
            for f in segment {
                out += "      <trkpt lat=\"\(deg(f.position.latitude))\" lon=\"\(deg(f.position.longitude))\">"
                out += "<time>\(f.at.iso8601)</time></trkpt>\n"
            }
            out += "    </trkseg>\n"
        }
        out += "  </trk>\n</gpx>\n"
        return out
    }

    /// "Alarm 2 at 03:41:07": numbered in the night and to the second, so two alarms in one
    /// minute keep their own names.
    static func alarmName(_ index: Int, _ ring: NightTrack.Ring) -> String {
        "Alarm \(index + 1) at \(ring.at.clockSeconds)"
    }

    /// 1e-7 degrees: about a centimeter, finer than any reading.
    static func deg(_ x: Double) -> String { FixedPoint.fixed(x, 7) }
}
