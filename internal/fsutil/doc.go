// Package fsutil holds the file-system rules the file tools share: paths
// must be absolute and are resolved through symlinks before any check;
// files are replaced atomically (a temporary file in the same folder,
// renamed over the target) keeping their permissions; text keeps its
// encoding (UTF-8 with or without a byte-order mark, UTF-16 LE/BE with a
// mark) and its line endings (LF or CRLF) across a read-modify-write; and
// binary content is recognised before it is shown as text.
//
// It knows nothing of tools, sessions or the model; errors name the
// operation and the path, and the path helpers name the input field.
package fsutil
