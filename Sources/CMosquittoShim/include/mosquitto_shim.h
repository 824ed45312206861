#ifndef ANCHOR_ALERT_MOSQUITTO_SHIM_H
#define ANCHOR_ALERT_MOSQUITTO_SHIM_H
/*
 * libmosquitto, loaded only when something asks for it (a box with [mqtt] enabled, the fleet
 * view): libmosquitto.so.1 is dlopen'ed on the first aa_mosquitto_load(), so a box without MQTT
 * never maps it, nor the libssl and libcrypto it brings (about 1.7 MB of resident pages).
 * <mosquitto.h> gives the types and constants; the functions below are libmosquitto's own,
 * called through the pointers dlsym found. Call none of them before aa_mosquitto_load()
 * returned 0. Sources/Drivers/MQTT/MQTTClient.swift is the only caller.
 */
#include <stdbool.h>
#include <stdint.h>
#include <mosquitto.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The soname loaded: the same on Debian 12 (mosquitto 2.0.11) and trixie (2.0.21). */
#define AA_MOSQUITTO_SONAME "libmosquitto.so.1"

/* Loads the library and every function below, once (later calls return the first outcome).
 * 0 on success; -1 when it could not, and aa_mosquitto_load_error() says why. */
int aa_mosquitto_load(void);
/* Why the load failed (dlerror's words), or "" after a success or before any attempt. */
const char *aa_mosquitto_load_error(void);

int aa_mosquitto_lib_init(void);
struct mosquitto *aa_mosquitto_new(const char *id, bool clean_session, void *obj);
void aa_mosquitto_destroy(struct mosquitto *mosq);
int aa_mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password);
int aa_mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile,
                         const char *keyfile, int (*pw_callback)(char *buf, int size, int rwflag, void *userdata));
void aa_mosquitto_user_data_set(struct mosquitto *mosq, void *obj);
void aa_mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int));
void aa_mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int));
void aa_mosquitto_message_callback_set(struct mosquitto *mosq,
                                       void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *));
int aa_mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain);
int aa_mosquitto_connect_async(struct mosquitto *mosq, const char *host, int port, int keepalive);
int aa_mosquitto_reconnect_async(struct mosquitto *mosq);
int aa_mosquitto_disconnect(struct mosquitto *mosq);
int aa_mosquitto_socket(struct mosquitto *mosq);
bool aa_mosquitto_want_write(struct mosquitto *mosq);
int aa_mosquitto_loop_read(struct mosquitto *mosq, int max_packets);
int aa_mosquitto_loop_write(struct mosquitto *mosq, int max_packets);
int aa_mosquitto_loop_misc(struct mosquitto *mosq);
int aa_mosquitto_loop(struct mosquitto *mosq, int timeout, int max_packets);
int aa_mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos,
                         bool retain);
int aa_mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos);
const char *aa_mosquitto_strerror(int mosq_errno);

/* Before the first connect: speak MQTT 5 and send a Maximum Packet Size in every CONNECT, so
 * the broker never forwards a packet larger than max_packet (it drops it for this client).
 * libmosquitto itself reads a packet of any size the broker sends into memory. */
int aa_mosquitto_limit_incoming(struct mosquitto *mosq, uint32_t max_packet);

#ifdef __cplusplus
}
#endif
#endif
