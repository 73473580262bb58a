#ifndef RIBCITY_CZEROMQ_SHIM_H
#define RIBCITY_CZEROMQ_SHIM_H
#include <zmq.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

/// Names the calling thread as `top -H` and debuggers show it (Linux keeps 15 characters).
static inline int ribcity_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif
