// Package write is the Write tool: it creates a file or replaces an
// existing file's whole content. An existing file must have been read in
// this session and be unchanged on disk since; it keeps its encoding, its
// line endings and its permissions, and is replaced atomically. Missing
// parent folders of a new file are created. The rules it shares with Edit
// live in package edit.
//
// This package must not import the engine or any front end.
package write
