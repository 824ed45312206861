import CMosquittoShim
import Posix

/// libmosquitto without its thread: the caller polls `fd` (for writing too while
/// `wantsToWrite`), calls `read()` / `write()` when poll says so and `misc()` now and then for
/// keepalive. Nothing here blocks but `connect` on a name (callers give addresses) and the
/// fleet view's `run(for:)`. The one file that calls libmosquitto, which is loaded (dlopen,
/// CMosquittoShim) only when the first client is made: a box without MQTT never maps it, nor
/// its libssl and libcrypto.
public final class MQTTClient {
    public struct Credentials: Sendable, Hashable {
        public var username = ""
        public var password = ""
        /// CA file to verify the broker by; empty: no TLS.
        public var caFile = ""
        public var certFile = ""
        public var keyFile = ""
        public init() {}
    }

    public var onConnect: ((Int32) -> Void)?
    public var onDisconnect: ((Int32) -> Void)?
    public var onMessage: ((String, [UInt8]) -> Void)?
    private let handle: OpaquePointer
    public private(set) var connected = false

    /// Why libmosquitto can't be used, in the box's words, or nil once it is loaded and
    /// initialised. Loads it on the first call; later calls give the same answer.
    public static var unavailable: String? { loaded }

    private static let loaded: String? = {
        guard aa_mosquitto_load() == 0 else {
            return "can't load \(AA_MOSQUITTO_SONAME) (\(String(cString: aa_mosquitto_load_error())))"
        }
        let r = aa_mosquitto_lib_init()
        return r == MOSQ_ERR_SUCCESS.rawValue ? nil : "libmosquitto did not start: \(describe(r))"
    }()

    /// nil when libmosquitto can't be had (`unavailable` says why) or refused the settings.
    /// With `maxIncoming`, the client speaks MQTT 5 and asks the broker in every CONNECT never
    /// to send it a packet larger than that (MQTT 5 Maximum Packet Size): libmosquitto has no
    /// limit of its own and reads any packet the broker sends whole into memory.
    public init?(id: String, credentials: Credentials = Credentials(), maxIncoming: UInt32? = nil) {
        guard Self.unavailable == nil, let h = aa_mosquitto_new(id, true, nil) else { return nil }
        handle = h
        if let maxIncoming, aa_mosquitto_limit_incoming(h, maxIncoming) != MOSQ_ERR_SUCCESS.rawValue {
            aa_mosquitto_destroy(h)
            return nil
        }
        if !credentials.username.isEmpty {
            aa_mosquitto_username_pw_set(h, credentials.username, credentials.password.isEmpty ? nil : credentials.password)
        }
        if !credentials.caFile.isEmpty {
            let r = aa_mosquitto_tls_set(h, credentials.caFile, nil, credentials.certFile.isEmpty ? nil : credentials.certFile,
                                      credentials.keyFile.isEmpty ? nil : credentials.keyFile, nil)
            if r != MOSQ_ERR_SUCCESS.rawValue {
                aa_mosquitto_destroy(h)
                return nil
            }
        }
        aa_mosquitto_user_data_set(h, Unmanaged.passUnretained(self).toOpaque())
        aa_mosquitto_connect_callback_set(h) { _, obj, rc in
            guard let obj else { return }
            let me = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            me.connected = rc == 0
            me.onConnect?(rc)
        }
        aa_mosquitto_disconnect_callback_set(h) { _, obj, rc in
            guard let obj else { return }
            let me = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            me.connected = false
            me.onDisconnect?(rc)
        }
        aa_mosquitto_message_callback_set(h) { _, obj, msg in
            guard let obj, let msg, let topic = msg.pointee.topic else { return }
            let me = Unmanaged<MQTTClient>.fromOpaque(obj).takeUnretainedValue()
            let n = Int(msg.pointee.payloadlen)
            let bytes = n > 0 && msg.pointee.payload != nil
                ? Array(UnsafeRawBufferPointer(start: msg.pointee.payload, count: n)) : []
            me.onMessage?(String(cString: topic), bytes)
        }
    }

    deinit { aa_mosquitto_destroy(handle) }

    /// The last will, set before connecting: the broker publishes it when the box vanishes.
    public func will(topic: String, payload: String, retain: Bool) {
        let b = Array(payload.utf8)
        aa_mosquitto_will_set(handle, topic, Int32(b.count), b, 1, retain)
    }

    /// Starts a non-blocking connect. Returns an error string, or nil once under way.
    public func connect(host: String, port: Int, keepalive: Int) -> String? {
        let r = aa_mosquitto_connect_async(handle, host, Int32(port), Int32(keepalive))
        return r == MOSQ_ERR_SUCCESS.rawValue ? nil : Self.describe(r)
    }

    public func reconnect() -> String? {
        let r = aa_mosquitto_reconnect_async(handle)
        return r == MOSQ_ERR_SUCCESS.rawValue ? nil : Self.describe(r)
    }

    public func disconnect() { aa_mosquitto_disconnect(handle) }

    /// The socket to poll, or -1 when there is none (not connected).
    public var fd: Int32 { aa_mosquitto_socket(handle) }
    public var wantsToWrite: Bool { aa_mosquitto_want_write(handle) }

    /// nil on success, else what went wrong (the connection is then gone).
    public func read() -> String? { check(aa_mosquitto_loop_read(handle, 8)) }
    public func write() -> String? { check(aa_mosquitto_loop_write(handle, 8)) }
    public func misc() -> String? { check(aa_mosquitto_loop_misc(handle)) }

    /// Queues a message; false when libmosquitto refused it (not connected, too big).
    @discardableResult
    public func publish(_ topic: String, _ payload: [UInt8], qos: Int32 = 0, retain: Bool) -> Bool {
        aa_mosquitto_publish(handle, nil, topic, Int32(payload.count), payload, qos, retain) == MOSQ_ERR_SUCCESS.rawValue
    }

    @discardableResult
    public func subscribe(_ pattern: String, qos: Int32 = 0) -> Bool {
        aa_mosquitto_subscribe(handle, nil, pattern, qos) == MOSQ_ERR_SUCCESS.rawValue
    }

    /// For a command-line reader, not the box: runs libmosquitto's own loop for `ms`.
    public func run(forMilliseconds ms: Int32) -> String? { check(aa_mosquitto_loop(handle, ms, 8)) }

    private func check(_ r: Int32) -> String? { r == MOSQ_ERR_SUCCESS.rawValue ? nil : Self.describe(r) }

    public static func describe(_ r: Int32) -> String {
        if r == MOSQ_ERR_ERRNO.rawValue { return Errno.current.description }
        return String(cString: aa_mosquitto_strerror(r))
    }

    /// The broker's answer to CONNECT, in words.
    public static func describeConnack(_ rc: Int32) -> String {
        switch rc {
        case 0: "accepted"
        case 4, 134: "bad user name or password"
        case 5, 135: "not authorised"
        default: "refused (\(rc))"
        }
    }
}
