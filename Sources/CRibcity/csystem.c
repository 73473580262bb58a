#define _GNU_SOURCE
#include "csystem.h"
#include <dlfcn.h>
#include <stdio.h>
#include <sys/prctl.h>

void ribcity_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}

int ribcity_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

const char *ribcity_malloc_provider(void) {
    void *symbol = dlsym(RTLD_DEFAULT, "malloc");
    Dl_info info;
    if (symbol == NULL || dladdr(symbol, &info) == 0) return NULL;
    return info.dli_fname;
}
