package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"reins/internal/engine"
	"reins/internal/filestate"
	"reins/internal/session"
	"reins/internal/tools/todo"
)

// findResumed loads the transcript --continue or --resume names.
func (a *app) findResumed() (*session.Transcript, error) {
	var info session.Info
	var err error
	if a.opts.Continue {
		info, err = a.store.Latest(a.cwd)
		if errors.Is(err, session.ErrNotFound) {
			return nil, fmt.Errorf("--continue: no earlier session in %s to continue (reins sessions --all lists those of other folders)", a.cwd)
		}
		if ue := (*session.UnreadableError)(nil); errors.As(err, &ue) {
			// Going on with the session before it would hand the user an
			// older conversation than the one asked for, unannounced.
			how := "move the file aside to continue the one before it"
			if ue.Next != "" {
				how = "reins --resume " + ue.Next + " goes on with the one before it"
			}
			return nil, fmt.Errorf("--continue: the latest session's transcript %s %s; reins did not continue an older session in its place (%s)", ue.Path, ue.Reason, how)
		}
		if err != nil {
			return nil, fmt.Errorf("--continue: no earlier session in %s to continue (%v)", a.cwd, err)
		}
	} else {
		id := strings.TrimSpace(a.opts.Resume)
		info, err = a.store.Find(id, a.cwd)
		if errors.Is(err, session.ErrNotFound) {
			// Say where reins looked, and how to see what is there.
			where := []string{filepath.Join(a.store.Root, "projects")}
			for _, d := range a.store.Also {
				where = append(where, filepath.Join(d, "projects"))
			}
			return nil, fmt.Errorf("--resume: %w (looked in %s; reins sessions --all lists them)", err, strings.Join(where, " and "))
		}
		if err != nil {
			return nil, fmt.Errorf("--resume: %w", err)
		}
	}
	at := strings.TrimSpace(a.opts.ResumeAt)
	// Another reins running this session (reins -c in two terminals):
	// both go on, each on its own branch of the one transcript, and this
	// one from the last finished turn, not from the middle of the turn the
	// other is running.
	busy := session.Busy(info.Path)
	var t *session.Transcript
	if busy && at == "" {
		t, err = session.LoadSettled(info.Path)
	} else {
		t, err = session.LoadAt(info.Path, at)
	}
	if err != nil {
		return nil, fmt.Errorf("resume %s: %w", info.ID, err)
	}
	if busy {
		// A fork, a new --session-id, or a session of another folder or
		// store goes on in a copy of its own.
		apart := a.opts.ForkSession || a.opts.SessionID != "" || !sameFile(info.Path, a.store.TranscriptPath(a.cwd, info.ID))
		a.warn(busyNote(info, at, apart))
	}
	for _, w := range t.Warnings {
		a.warn(fmt.Sprintf("resume %s: %s: %s", info.ID, info.Path, w.String()))
	}
	if t.SessionID == "" {
		t.SessionID = info.ID
	}
	return t, nil
}

// busyNote says that the session resumed is being recorded by another
// reins, and what follows; at is the message it goes on from, when chosen
// (--resume-session-at); apart is set when this reins records into a copy
// of its own (--fork-session, a session of another folder).
func busyNote(info session.Info, at string, apart bool) string {
	from := "the last finished turn"
	if at != "" {
		from = "message " + at
	}
	if apart {
		return fmt.Sprintf("session %s is open in another reins that is still recording it (%s); the copy this one records goes on from %s", info.ID, info.Path, from)
	}
	return fmt.Sprintf("session %s is open in another reins that is still recording it (%s); this one goes on from %s, and both record into that transcript as separate branches: a later --resume or --continue goes on with the branch recorded last", info.ID, info.Path, from)
}

// resume puts a loaded transcript's history and state into the session.
func (a *app) resume() error {
	t := a.resumed
	if t == nil {
		return nil
	}
	if a.writer != nil && !sameFile(t.Path, a.store.TranscriptPath(a.cwd, a.sessionID)) {
		// The conversation goes on in another file than the one it was read
		// from: a fork, a new --session-id, a session Claude Code recorded
		// or one of another folder. The new transcript gets the whole
		// history first, so it stands on its own when resumed later.
		dst, warns, err := a.store.Fork(t.Path, a.cwd, a.sessionID)
		if err != nil {
			return err
		}
		for _, w := range warns {
			if w.Line == 0 { // the load reported the lines left out
				a.warn(fmt.Sprintf("resume %s: %s", t.SessionID, w))
			}
		}
		if !a.opts.ForkSession && a.opts.SessionID == "" {
			a.warn(a.continuedIn(t, dst, a.sessionID))
		}
		for _, r := range t.Repairs {
			r.SessionID = a.sessionID
		}
	}
	if a.writer != nil && sameFile(t.Path, a.writer.Path()) {
		// Recording into the file from now on, so that a reins resuming
		// it meanwhile knows (session.Busy).
		// A file that cannot be opened for writing fails at the first
		// line recorded, as it did before; it is not an error here.
		_ = a.writer.Open()
	}
	items := make([]engine.HistoryItem, len(t.Items))
	for i, it := range t.Items {
		items[i] = engine.HistoryItem{UUID: it.UUID, Message: it.Message, Meta: it.Meta, Summary: it.Summary}
	}
	a.sess.SetHistory(items)
	a.sess.SetLastUUID(t.Leaf)
	if a.writer != nil && len(t.Repairs) > 0 {
		for _, r := range t.Repairs {
			r.Version = Version // as every line this reins records
		}
		if err := t.WriteRepairs(a.writer); err != nil {
			return err
		}
	}
	if len(t.Repairs) > 0 {
		a.sess.SetLastUUID(t.Repairs[len(t.Repairs)-1].UUID)
	}
	if a.writer != nil {
		keepTitleInView(a.sess, a.writer.Path(), t.CustomTitle)
	}
	a.restoreState(t)
	return nil
}

// restoreState gives a resumed session the state its transcript recorded,
// in place of the state of the conversation left (/resume): its todo list,
// its approved plan, the files it read that have not changed since, and
// how long its prompt cache has been idle.
func (a *app) restoreState(t *session.Transcript) {
	if a.compactor != nil {
		a.compactor.SetLastActivity(t.LastActivity)
	}
	if p := t.Plan; p != "" {
		a.lastPlan.Store(&p) // for a compaction, when the approval was summarised before
	} else {
		a.lastPlan.Store(nil)
	}
	var items []todo.Item
	if len(t.Todos) > 0 && json.Unmarshal(t.Todos, &items) != nil {
		items = nil
	}
	a.todos.Replace("", items)
	a.files.Clear()
	for _, f := range t.ReadFiles {
		info, err := os.Stat(f.Path)
		if err != nil || info.ModTime().After(f.Time) || f.Partial {
			continue
		}
		data, err := os.ReadFile(f.Path)
		if err != nil {
			continue
		}
		a.files.Record(filestate.EntryFor(f.Path, data, info))
	}
}

// forgetState drops the todo list and the files read of the conversation
// left, when /clear starts a new one: a compaction in the new conversation
// would give them back as its own, and Edit would take a file read there
// as read here.
func (a *app) forgetState() {
	a.todos.Replace("", nil)
	a.files.Clear()
}

// keepTitleInView records the session's /rename title again when the
// transcript at path no longer shows it in the part session lists read
// (its last 64 KB): the title was set long ago in a session that went on.
func keepTitleInView(s *engine.Session, path, title string) {
	if title == "" {
		return
	}
	if info, ok := session.Stat(path); ok && info.CustomTitle == title {
		return
	}
	s.Record(&session.Entry{Type: session.TypeCustomTitle, CustomTitle: title})
}

// continuedIn says where a resumed session recorded elsewhere goes on, as
// session id: a
// session Claude Code recorded, one of another folder, or one under
// another name.
func (a *app) continuedIn(t *session.Transcript, dst, id string) string {
	under := "under the same session id"
	if id != t.SessionID {
		under = "under the new session id " + id
	}
	for _, d := range a.store.Also {
		if rel, err := filepath.Rel(d, t.Path); err == nil && !strings.HasPrefix(rel, "..") {
			return fmt.Sprintf("session %s was recorded by Claude Code (%s); reins continues it %s in its own transcript %s, and leaves Claude Code's file as it was", t.SessionID, t.Path, under, dst)
		}
	}
	from := filepath.Dir(t.Path)
	if t.Cwd != "" && t.Cwd != a.cwd {
		from = t.Cwd
	}
	return fmt.Sprintf("session %s was recorded in %s (%s); it continues here %s in %s, and the transcript it came from is left as it was", t.SessionID, from, t.Path, under, dst)
}

// sameFile reports whether a and b name the same existing file.
func sameFile(a, b string) bool {
	ai, err := os.Stat(a)
	if err != nil {
		return false
	}
	bi, err := os.Stat(b)
	return err == nil && os.SameFile(ai, bi)
}
