#include "csystem.h"
#include <stdio.h>
#include <sys/prctl.h>

void ribcity_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}

int ribcity_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
