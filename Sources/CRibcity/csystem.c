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

#include <sys/epoll.h>

int ribcity_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int ribcity_epoll_watch(int epoll, int fd, int writable, int modify) {
    struct epoll_event event = {0};
    event.events = EPOLLIN | EPOLLRDHUP | EPOLLET | (writable ? EPOLLOUT : 0);
    event.data.fd = fd;
    return epoll_ctl(epoll, modify ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
}

int ribcity_epoll_forget(int epoll, int fd) { return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, NULL); }

int ribcity_epoll_ready(int epoll, int *fds, int *flags, int capacity) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, events, capacity, 0);
    for (int i = 0; i < count; i++) {
        fds[i] = events[i].data.fd;
        flags[i] = ((events[i].events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) ? 1 : 0)
            | ((events[i].events & EPOLLOUT) ? 2 : 0);
    }
    return count;
}

#include <sys/socket.h>

int ribcity_peer_uid(int fd, unsigned *uid) {
    struct ucred credentials;
    socklen_t size = sizeof credentials;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

int ribcity_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }
