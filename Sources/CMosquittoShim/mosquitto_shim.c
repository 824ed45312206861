/* libmosquitto through dlopen: see include/mosquitto_shim.h. */
#include "mosquitto_shim.h"

#include <dlfcn.h>
#include <mqtt_protocol.h>
#include <stdio.h>

/* Every function used, each a pointer typed from <mosquitto.h>'s own declaration (so the
 * compiler checks the calls below against the header the box is built with). */
#define AA_MOSQUITTO_FUNCTIONS(X) \
    X(mosquitto_lib_init) X(mosquitto_new) X(mosquitto_destroy) X(mosquitto_username_pw_set) \
    X(mosquitto_tls_set) X(mosquitto_user_data_set) X(mosquitto_connect_callback_set) \
    X(mosquitto_disconnect_callback_set) X(mosquitto_message_callback_set) X(mosquitto_will_set) \
    X(mosquitto_connect_async) X(mosquitto_reconnect_async) X(mosquitto_disconnect) X(mosquitto_socket) \
    X(mosquitto_want_write) X(mosquitto_loop_read) X(mosquitto_loop_write) X(mosquitto_loop_misc) \
    X(mosquitto_loop) X(mosquitto_publish) X(mosquitto_subscribe) X(mosquitto_strerror) X(mosquitto_int_option) \
    X(mosquitto_property_add_int32) X(mosquitto_property_free_all) X(mosquitto_connect_bind_v5)

#define AA_POINTER(name) static __typeof__(&name) p_##name;
AA_MOSQUITTO_FUNCTIONS(AA_POINTER)

static int outcome = 1; /* 1: not tried yet, 0: loaded, -1: failed */
static char why[512] = "";

int aa_mosquitto_load(void) {
    if (outcome != 1) return outcome;
    void *lib = dlopen(AA_MOSQUITTO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = dlerror();
        snprintf(why, sizeof why, "%s", e ? e : "can't load " AA_MOSQUITTO_SONAME);
        return outcome = -1;
    }
#define AA_FIND(name)                                                                                  \
    p_##name = (__typeof__(&name))dlsym(lib, #name);                                                   \
    if (!p_##name) {                                                                                   \
        snprintf(why, sizeof why, "%s has no %s", AA_MOSQUITTO_SONAME, #name);                         \
        dlclose(lib);                                                                                  \
        return outcome = -1;                                                                           \
    }
    AA_MOSQUITTO_FUNCTIONS(AA_FIND)
    return outcome = 0;
}

const char *aa_mosquitto_load_error(void) { return why; }

int aa_mosquitto_lib_init(void) { return p_mosquitto_lib_init(); }
struct mosquitto *aa_mosquitto_new(const char *id, bool clean_session, void *obj) {
    return p_mosquitto_new(id, clean_session, obj);
}
void aa_mosquitto_destroy(struct mosquitto *mosq) { p_mosquitto_destroy(mosq); }
int aa_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return p_mosquitto_username_pw_set(mosq, username, password);
}
int aa_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                         const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return p_mosquitto_tls_set(mosq, cafile, capath, certfile, keyfile, pw_callback);
}
void aa_mosquitto_user_data_set(struct mosquitto *mosq, void *obj) { p_mosquitto_user_data_set(mosq, obj); }
void aa_mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    p_mosquitto_connect_callback_set(mosq, on_connect);
}
void aa_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)) {
    p_mosquitto_disconnect_callback_set(mosq, on_disconnect);
}
void aa_mosquitto_message_callback_set(struct mosquitto *mosq,
                                       void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    p_mosquitto_message_callback_set(mosq, on_message);
}
int aa_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return p_mosquitto_will_set(mosq, topic, payloadlen, payload, qos, retain);
}
int aa_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    return p_mosquitto_connect_async(mosq, host, port, keepalive);
}
int aa_mosquitto_reconnect_async(struct mosquitto *mosq) { return p_mosquitto_reconnect_async(mosq); }
int aa_mosquitto_disconnect(struct mosquitto *mosq) { return p_mosquitto_disconnect(mosq); }
int aa_mosquitto_socket(struct mosquitto *mosq) { return p_mosquitto_socket(mosq); }
bool aa_mosquitto_want_write(struct mosquitto *mosq) { return p_mosquitto_want_write(mosq); }
int aa_mosquitto_loop_read(struct mosquitto *mosq, int max_packets) { return p_mosquitto_loop_read(mosq, max_packets); }
int aa_mosquitto_loop_write(struct mosquitto *mosq, int max_packets) { return p_mosquitto_loop_write(mosq, max_packets); }
int aa_mosquitto_loop_misc(struct mosquitto *mosq) { return p_mosquitto_loop_misc(mosq); }
int aa_mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets) {
    return p_mosquitto_loop(mosq, timeout, max_packets);
}
int aa_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos,
                         bool retain) {
    return p_mosquitto_publish(mosq, mid, topic, payloadlen, payload, qos, retain);
}
int aa_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    return p_mosquitto_subscribe(mosq, mid, sub, qos);
}
const char *aa_mosquitto_strerror(int mosq_errno) { return p_mosquitto_strerror(mosq_errno); }

int aa_mosquitto_limit_incoming(struct mosquitto *mosq, uint32_t max_packet) {
    int r = p_mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    if (r != MOSQ_ERR_SUCCESS) return r;
    mosquitto_property *props = NULL;
    r = p_mosquitto_property_add_int32(&props, MQTT_PROP_MAXIMUM_PACKET_SIZE, max_packet);
    if (r != MOSQ_ERR_SUCCESS) return r;
    /* libmosquitto 2.0 keeps a v5 connect's properties for every later connect and reconnect
     * (mosq->connect_properties), but only the blocking mosquitto_connect_bind_v5 takes them.
     * It stores them before it checks its other arguments, so a keepalive of 1 (invalid)
     * stores them and returns MOSQ_ERR_INVAL without opening a socket; the non-blocking
     * connect that follows sends them. Checked in 2.0.11 (Debian 12) to 2.0.20, lib/connect.c. */
    r = p_mosquitto_connect_bind_v5(mosq, "", 0, 1, NULL, props);
    p_mosquitto_property_free_all(&props);
    return r == MOSQ_ERR_INVAL ? MOSQ_ERR_SUCCESS : (r == MOSQ_ERR_SUCCESS ? MOSQ_ERR_UNKNOWN : r);
}
