import Posix
import WatchCore

/// The checks that need no driver, so the box and the command line run them alike: free space
/// for the log, undervoltage, the clock. `sysfs` is a parameter so tests can lay out a fake
/// /sys; where a fact can't be read the row is unknown, never ok.
/// What the Systems Check reads of the machine (tests give one that counts or fakes it).
protocol SystemsProbing {
    func rows() -> [SystemsCheck.Row]
}

struct SystemsProbe: SystemsProbing {
    var journalDirectory: String
    var sysfs: String = "/sys"
    var runRoot: String = "/run"
    /// Below this the log can't keep a night: failing (pushes).
    var failingFreeBytes: UInt64 = 16 << 20
    /// Below this, or below `attentionFreeShare` of the card: attention.
    var attentionFreeBytes: UInt64 = 128 << 20
    var attentionFreeShare: Double = 0.05
    /// A clock before this year was never set (a Pi without a battery boots in the past).
    var earliestPlausibleYear: Int32 = 2025
    /// The wall time the clock row judges: in the running box the turn's (`LoopClock`), never
    /// a read of its own; the system's for `check`.
    var wall: () -> WallTime = WallTime.now

    func rows() -> [SystemsCheck.Row] { [journalSpace(), journalCard(), power(), clock(now: wall())] }

    /// `look` at the journal's directory or, where it does not exist yet, its nearest parent
    /// (what will hold it); nil where neither can be read.
    private func atJournal<T>(_ look: (String) throws -> T) -> T? {
        var path = journalDirectory
        while true {
            do {
                return try look(path)
            } catch let e as SystemError where e.errno == .notFound && path != "/" && path.contains("/") {
                path = Files.directory(of: path)
            } catch {
                return nil
            }
        }
    }

    func journalSpace() -> SystemsCheck.Row {
        guard let space = atJournal(Files.space) else {
            return .init(.journalSpace, .unknown, "Can't tell: can't read \(journalDirectory)")
        }
        let free = UInt64(max(0, space.free))
        let total = UInt64(max(0, space.total))
        let share = total > 0 ? Double(free) / Double(total) : 0
        let text = "\(Self.megabytes(free)) free of \(Self.megabytes(total))"
        if free < failingFreeBytes { return .init(.journalSpace, .failing, "No: \(text)") }
        if free < attentionFreeBytes || share < attentionFreeShare { return .init(.journalSpace, .attention, "Only \(text)") }
        return .init(.journalSpace, .ok, "Yes: \(text)")
    }

    /// Where the journal lives decides what a power cut leaves of it: in memory nothing; on FAT
    /// the power cuts lost receipted decisions with the box as it is (Docs/proofs.md); ext4
    /// (the Pi card's journal partition), XFS and F2FS kept every one. Anything else the box
    /// was not tried on: it can't tell.
    func journalCard() -> SystemsCheck.Row {
        guard let kind = atJournal(Files.fileSystemKind) else {
            return .init(.journalCard, .unknown, "Can't tell: can't read \(journalDirectory)")
        }
        return Self.journalCard(kind, journalDirectory)
    }

    static func journalCard(_ kind: Files.FileSystemKind, _ journalDirectory: String) -> SystemsCheck.Row {
        switch kind {
        case .ext, .xfs, .f2fs:
            return .init(.journalCard, .ok, "Yes: \(journalDirectory) is on \(kind.name)")
        case .tmpfs, .ramfs:
            return .init(.journalCard, .attention, "No: \(journalDirectory) is in memory (\(kind.name)): a power cut loses the anchor mark and the night")
        case .fat, .exfat:
            return .init(.journalCard, .attention, "No: \(journalDirectory) is on \(kind.name), where a power cut can lose saved decisions")
        case .overlay:
            return .init(.journalCard, .unknown, "Can't tell: \(journalDirectory) is on an overlay, whose changes may be held in memory",
                         remedy: SystemsCheck.Component.journalCard.remedy)
        case .btrfs, .other:
            return .init(.journalCard, .unknown, "Can't tell: \(journalDirectory) is on \(kind.name), where power cuts were not tried")
        }
    }

    static func megabytes(_ b: UInt64) -> String {
        b >= 10 << 30 ? "\(b >> 30) GB" : "\(b >> 20) MB"
    }

    /// A Raspberry Pi's firmware reports undervoltage through the `rpi_volt` hwmon device:
    /// `in0_lcrit_alarm` is 1 while the supply is below its limit.
    func power() -> SystemsCheck.Row {
        let base = sysfs + "/class/hwmon"
        guard let names = try? Files.list(base) else {
            return .init(.power, .unknown, "Can't tell: this machine reports no undervoltage")
        }
        for name in names.sorted() {
            guard !name.hasPrefix(".") else { continue }
            let hw = base + "/" + name
            guard Files.readText(hw + "/name")?.withoutSpace == "rpi_volt" else { continue }
            switch Files.readText(hw + "/in0_lcrit_alarm")?.withoutSpace {
            case "0": return .init(.power, .ok, "Yes")
            case "1": return .init(.power, .failing, "No: undervoltage, the box may stop")
            default: return .init(.power, .unknown, "Can't tell: the undervoltage sensor gave no answer")
            }
        }
        return .init(.power, .unknown, "Can't tell: this machine reports no undervoltage")
    }

    /// Whether the wall clock can be believed. A clock in the past was never set (a Pi has no
    /// battery-backed clock); systemd-timesyncd marks a synchronized clock with a file. Not
    /// synchronized is normal at anchor with no network, so this is attention at worst: only
    /// the times in the log are at stake, never the watch (which runs on the monotonic clock).
    func clock(now: WallTime) -> SystemsCheck.Row {
        if CalendarTime(seconds: now.seconds, utc: true).year < Int(earliestPlausibleYear) {
            return .init(.clock, .attention, "No: the clock says \(now.dateAndClock), times in the log are wrong")
        }
        if Files.exists(runRoot + "/systemd/timesync/synchronized") {
            return .init(.clock, .ok, "Yes: synchronized")
        }
        return .init(.clock, .unknown, "Can't tell: no time service says it is synchronized")
    }

    /// The box's own clock check: the receiver's UTC against the wall clock. More than a few
    /// seconds apart means the times in the log are off by that much.
    static func clock(wall: WallTime, gpsTime: Double, tolerance: Duration = .seconds(5)) -> SystemsCheck.Row {
        let off = wall.seconds - gpsTime
        if abs(off) <= tolerance.seconds { return .init(.clock, .ok, "Yes: agrees with GPS time") }
        let amount = abs(off) < 120 ? "\(Int(abs(off).rounded())) s" : "\(Int((abs(off) / 60).rounded())) min"
        return .init(.clock, .attention, "No: \(amount) \(off > 0 ? "ahead of" : "behind") GPS time, times in the log are off")
    }
}

extension String {
    /// Without surrounding whitespace, newlines included (sysfs and /proc end lines with one).
    var withoutSpace: String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s = s.dropFirst() }
        while let l = s.last, l.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
