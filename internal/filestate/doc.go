// Package filestate records, for one session, which files the model has
// read: the path, a hash of the whole content at the time, its size and
// modification time, and which lines were shown. The file tools consult
// it before changing a file ("it must have been read in this session and
// be unchanged on disk since"), update it after writing, and compaction
// asks it for the files read most recently.
//
// A State is safe for concurrent use. It does no I/O of its own: callers
// pass in what they read from disk, so checks stay cheap and testable.
package filestate
