/// Holding means the fixes say the boat is inside (Docs/verdict.md, "Holding"): not merely too
/// little evidence yet. After a restart, a mark or a GPS gap the evidence starts from nothing,
/// and a boat far outside must never read Holding while it builds, on any receiver and rate.
extension Watch {
    /// The verdict while the evidence is no more than one fix could carry: Holding when at least
    /// `min_fixes` of the window's fixes lie inside the alert radius and they are no fewer than
    /// those beyond it (the deadband keeps a fix just beyond from building evidence, not from
    /// saying where the boat is), and the newest `min_fixes` are not all beyond it (a drag is not
    /// Holding while the window still holds the fixes from before it left); Checking when two or
    /// more fixes beyond say the boat is outside, and the evidence is building; otherwise too few
    /// readings to judge.
    func holdingOrNot(evidence e: Double, fixes: Int) -> PositionVerdict {
        let beyond = beyondInWindow, inside = fixes - beyond
        if inside >= settings.minFixes, inside >= beyond, beyondRun < settings.minFixes { return .holding }
        if beyond >= 2 {
            return .checking(progress: min(max(e / settings.confirmation.seconds, 0), 1))
        }
        return .cantJudge(.tooFewReadings)
    }
}
