import Glibc

/// SysV shared memory, which gpsd leaves behind in tests.
enum SharedMemory {
    /// Removes the segment of `key`, if any.
    static func remove(key: UInt32) {
        let id = shmget(key_t(bitPattern: key), 0, 0)
        if id >= 0 { shmctl(id, IPC_RMID, nil) }
    }

    static func remove(id: Int32) { shmctl(id, IPC_RMID, nil) }
}
