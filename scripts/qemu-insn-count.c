/* A TCG plugin for user-mode qemu (scripts/bench-loop.sh --qemu): counts the guest instructions
 * each emulated CPU executes and writes them at exit, one line a CPU ("cpu N COUNT") and a
 * "total" line. In user mode every guest thread is its own CPU, numbered in order of creation:
 * cpu 0 is the main thread. Each translated block adds its instruction count when it runs
 * (a block left early by a fault would count whole: the box takes none on its path).
 * The plugin API's few declarations are written here (API version 1, qemu 7.2 and later), so
 * no qemu headers are needed: gcc -O2 -shared -fPIC -o insn.so qemu-insn-count.c
 * Use: qemu-x86_64 -plugin ./insn.so,out=FILE PROGRAM ... */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct {
    const char *target_name;
    struct { int min, cur; } version;
    int system_emulation;
} qemu_info_t;
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, void (*)(qemu_plugin_id_t, struct qemu_plugin_tb *));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *, void (*)(unsigned int, void *), int flags, void *);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, void (*)(qemu_plugin_id_t, void *), void *);

#define EXPORT __attribute__((visibility("default")))
EXPORT int qemu_plugin_version = 1;

enum { MAX_CPUS = 256, CB_NO_REGS = 0 };
static uint64_t executed[MAX_CPUS];   /* the last slot also takes any CPU past it */
static char out_path[4096] = "/dev/stderr";

static void block_ran(unsigned int cpu, void *instructions) {
    executed[cpu < MAX_CPUS ? cpu : MAX_CPUS - 1] += (uintptr_t)instructions;
}

static void block_translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_cb(tb, block_ran, CB_NO_REGS, (void *)(uintptr_t)qemu_plugin_tb_n_insns(tb));
}

static void write_counts(qemu_plugin_id_t id, void *unused) {
    (void)id; (void)unused;
    FILE *f = fopen(out_path, "w");
    if (!f) return;
    uint64_t total = 0;
    for (int i = 0; i < MAX_CPUS; i++) {
        if (executed[i]) fprintf(f, "cpu %d %llu\n", i, (unsigned long long)executed[i]);
        total += executed[i];
    }
    fprintf(f, "total %llu\n", (unsigned long long)total);
    fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
        else { fprintf(stderr, "qemu-insn-count: unknown argument %s (only out=FILE)\n", argv[i]); return -1; }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, block_translated);
    qemu_plugin_register_atexit_cb(id, write_counts, NULL);
    return 0;
}
