// For the control-protocol fuzz target only: the one word ControlProtocol.swift borrows from the
// run loop's console (Sources/Appliance/Runtime/ConsoleLog.swift), which would pull in the loop.
enum ConsoleLog {
    static let notSaved = "Log: not saved, the box will forget this after a restart"
}
