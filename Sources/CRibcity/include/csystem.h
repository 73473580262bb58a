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

#endif
