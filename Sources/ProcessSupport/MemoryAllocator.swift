import CRibcity
import Foundation

/// Which allocator serves this process's `malloc`: the library that defines the symbol the
/// dynamic linker bound (`libmimalloc.so.2` for ribcity's executables, `libc.so.6` for glibc's,
/// the executable itself under a sanitizer, whose allocator is linked in).
public enum MemoryAllocator {
    /// The file name of what defines `malloc` here, or nil if the dynamic linker cannot say.
    public static var library: String? {
        guard let path = ribcity_malloc_provider() else { return nil }
        return URL(fileURLWithPath: String(cString: path)).lastPathComponent
    }

    /// The line `ribcity --version` ends with: "memory allocator: libmimalloc.so.2".
    public static var description: String { "memory allocator: \(library ?? "unknown")" }
}
