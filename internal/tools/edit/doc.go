// Package edit holds the Edit and MultiEdit tools, which replace exact
// text in a file, and the file-changing rules they share with the Write
// tool (package write):
//
//   - an existing file must have been read in this session (Read records
//     it in filestate.State) and be unchanged on disk since; otherwise
//     the model is told to read it again;
//   - the file keeps its encoding and line endings (fsutil.DecodeText and
//     EncodeText) and its permissions, and is replaced atomically, so
//     nothing is ever half-written;
//   - symlinks are resolved first, so the link's target is what changes;
//   - results carry a structured patch (hunks with oldStart, oldLines,
//     newStart, newLines and prefixed lines) made with go-udiff, and the
//     model sees the changed region with line numbers as Read shows them.
//
// Edit requires old_string to occur exactly once unless replace_all is
// set, refuses old_string equal to new_string, and when the exact text is
// not found tries again with curly and straight quotes treated alike.
// MultiEdit applies a list of such edits in order, all or none.
//
// This package must not import the engine or any front end.
package edit
