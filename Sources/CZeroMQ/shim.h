#ifndef RIBCITY_CZEROMQ_SHIM_H
#define RIBCITY_CZEROMQ_SHIM_H
#include <stdio.h>
#include <zmq.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <unistd.h>

/// Names the calling thread as `top -H` and debuggers show it (Linux keeps 15 characters).
// Line-buffers standard output, so that a process's log (a file or a pipe) gets each line as it
// is printed: Swift 6 cannot touch C's `stdout` global directly.
static inline void ribcity_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}

static inline int ribcity_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif
