/* Linux interfaces Swift's Glibc module leaves out: the event loop's timerfd and signalfd, mallopt,
 * statfs (the journal's file system kind). */
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <signal.h>
#include <malloc.h>
#include <sys/statfs.h>
