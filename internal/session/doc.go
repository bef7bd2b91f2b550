// Package session stores conversations as transcripts and reads them back.
//
// A transcript is a JSONL file, one Entry per line, appended (O_APPEND, one
// write per line) as each message completes and never rewritten, so a
// killed process loses at most the line being written. Messages form a
// chain through parentUuid; a resumed session rebuilds the chain from its
// leaf. Transcripts live under the user config folder in
// projects/<slug>/<session-id>.jsonl, where the slug is derived from the
// working folder as Claude Code derives it.
//
// This package knows nothing of the engine; the engine records Entries
// through a Writer.
package session
