// Package session stores conversations as transcripts and reads them back.
//
// A transcript is a JSONL file, one Entry per line, appended (O_APPEND, one
// write per line) as each message completes and never rewritten, so a
// killed process loses at most the line being written (DESIGN invariant
// 12). Messages form a chain through parentUuid. Transcripts live under
// the user config folder (ConfigDir: ~/.reins or $REINS_CONFIG_DIR) in
// projects/<slug>/<session-id>.jsonl, where the slug is derived from the
// working folder as Claude Code derives it (Slug); a session's side files
// (persisted tool results) live in projects/<slug>/<session-id>/. A Store
// computes these paths.
//
// # Resume
//
// Load streams a transcript and rebuilds the history from its leaf (the
// last entry) back through parentUuid to the root or to the last
// compaction boundary, so a resumed session sends the same messages,
// byte for byte, as the session that recorded them. It never fails on bad
// content: a torn last line (a crash mid-write), a malformed line or a
// missing link is skipped or bridged and reported as a Warning with its
// line number. Tool calls left without a result get a synthetic error
// result (DESIGN invariant 2); when they were the last thing recorded,
// Transcript.Repairs holds the entry to append so the file matches. A
// compaction boundary with nothing after it (the session stopped before
// the summary was recorded) is set aside: the history it was compacting is
// resumed instead.
// The results of a batch of tool calls are recorded as each call finishes,
// so a kill during a slow call keeps the results already in; Load puts
// them back in call order and applies the per-message budget's
// replacements recorded after them (TypeReplacement), as the session that
// recorded them had them.
// Load also returns the recorded state: the todo list and the approved
// plan (set by the last TodoWrite and ExitPlanMode calls that went
// through, found past compaction boundaries too), tool-result budget
// decisions, files read, last usage, title.
//
// Claude Code's own transcripts load too: responses it split into one
// entry per content block are joined again, the failed requests it
// recorded as assistant messages (isApiErrorMessage) are left out of the
// history, as Claude Code leaves them out of its requests, and its extra
// fields are ignored.
//
// # Sessions on disk
//
// Store.List, Latest and Find locate sessions for `reins sessions`,
// --continue and --resume without parsing whole files; Store.Fork copies
// a transcript under a new id (--fork-session); Store.Cleanup removes
// transcripts older than cleanupPeriodDays (never one still being
// recorded).
//
// Two processes may record into one transcript at once (reins --continue
// in two terminals): each line is one append, so none is lost or torn, and
// each process's entries form their own branch of the chain. A Writer
// holds a shared flock on its file while open; Busy probes for one, and
// LoadSettled then resumes from the last finished turn rather than from
// the middle of the turn the other process is running. Load's leaf (the
// last entry of the file) is the branch recorded last.
//
// This package knows nothing of the engine: the engine records Entries
// through a Writer (it implements engine.Recorder), and the caller turns a
// Transcript's Items into engine.HistoryItems.
package session
