import CRibcity

/// Line-buffers standard output, so that a process's log (a file or a pipe, under
/// `ribcity launch`) shows each line as it is printed.
public func lineBufferStandardOutput() {
    ribcity_line_buffer_stdout()
}
