#ifndef RIBCITY_CSYSTEM_H
#define RIBCITY_CSYSTEM_H

/// Line-buffers standard output, so that a process's log (a file or a pipe) gets each line as it
/// is printed: Swift 6 cannot touch C's `stdout` global directly.
void ribcity_line_buffer_stdout(void);

/// Names the calling thread as `top -H` and debuggers show it (Linux keeps 15 characters).
int ribcity_set_thread_name(const char *name);

/// The path of the library (or executable) that defines the `malloc` this process calls, or
/// NULL if the dynamic linker cannot say.
const char *ribcity_malloc_provider(void);

/// An epoll instance (close-on-exec), or -1 with errno set. Swift's Glibc module leaves out
/// <sys/epoll.h>, whose event struct is packed.
int ribcity_epoll_create(void);

/// Watches `fd` on `epoll`, edge-triggered, for reading (and for writing too if `writable`),
/// or changes what it is watched for (`modify`). 0, or -1 with errno set.
int ribcity_epoll_watch(int epoll, int fd, int writable, int modify);

/// Stops watching `fd` (0, or -1 with errno set).
int ribcity_epoll_forget(int epoll, int fd);

/// Takes the events ready now, without waiting: up to `capacity` descriptors in `fds`, and in
/// `flags` for each: 1 readable (or hung up, or failed), 2 writable. The count, or -1.
int ribcity_epoll_ready(int epoll, int *fds, int *flags, int capacity);

/// The user id of the process at the other end of the Unix socket `fd` (SO_PEERCRED): 0 and
/// `*uid` set, or -1 with errno set.
int ribcity_peer_uid(int fd, unsigned *uid);

/// Accepts a connection on the listening socket `fd`, non-blocking and close-on-exec
/// (accept4): the new descriptor, or -1 with errno set.
int ribcity_accept(int fd);

#endif
