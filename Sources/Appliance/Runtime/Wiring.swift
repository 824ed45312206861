import Drivers
import Recordings
import WatchCore

/// Builds the box's devices from the configuration. Each device that can't be had becomes a
/// named fault; the box watches with what it has.
struct Wiring {
    let config: Configuration
    let now: Instant

    func gps(simulate: String?, speed: Double) -> Result<Pollable, Fault> {
        if let simulate {
            switch simulate {
            case "hold": return .success(SimulatedGPS(.script(.hold), start: now, speed: speed))
            case "drag": return .success(SimulatedGPS(.script(.drag), start: now, speed: speed))
            case "demo": return .success(SimulatedGPS(.script(.demo), start: now, speed: speed))
            default:
                do {
                    let log = try LogReader.read(bytes: try FileBytes.read(simulate))
                    return .success(SimulatedGPS(.recording(log.readings), start: now, speed: speed))
                } catch {
                    return .failure(Fault(.gpsd, "GPS: can't read the simulated log \(simulate): \(error)"))
                }
            }
        }
        if config.gpsSource == "simulated" {
            return .success(SimulatedGPS(.script(.hold), start: now, speed: speed))
        }
        return .failure(Fault(.gpsd, "GPS: gpsd driver not built into this box yet"))
    }
}
