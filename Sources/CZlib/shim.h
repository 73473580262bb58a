#ifndef RIBCITY_CZLIB_SHIM_H
#define RIBCITY_CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro in zlib.h; Swift cannot call macros.
static inline int ribcity_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}
#endif
