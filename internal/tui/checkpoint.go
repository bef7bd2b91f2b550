package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"github.com/aymanbagabas/go-udiff"

	"reins/internal/tool"
)

// checkpointMaxFile is the largest file a checkpoint keeps a copy of.
const checkpointMaxFile = 8 << 20

// Checkpoints keeps, per turn, the content files had before reins's edit
// tools first changed them in that turn, so that a rewind can put them
// back. Wrap the session's gate with Gate so every allowed edit call is
// recorded before it runs. It is safe for concurrent use.
type Checkpoints struct {
	mu    sync.Mutex
	turns []string // turn ids in order; guarded by mu
	snaps []snapshot
}

// snapshot is a file's content before a turn first changed it.
type snapshot struct {
	turn    int // index into turns
	path    string
	data    []byte
	existed bool
	mode    fs.FileMode
}

// editPaths returns the files an edit tool's input will change.
func editPaths(name string, input json.RawMessage) []string {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	switch name {
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		if json.Unmarshal(input, &in) == nil {
			if p := in.FilePath + in.NotebookPath; p != "" {
				return []string{filepath.Clean(p)}
			}
		}
	}
	return nil
}

// Begin starts a new turn, named by the id of its user message.
func (c *Checkpoints) Begin(turn string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.turns = append(c.turns, turn)
}

// record keeps path's current content unless this turn already did.
func (c *Checkpoints) record(path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.turns) == 0 {
		c.turns = append(c.turns, "")
	}
	cur := len(c.turns) - 1
	for _, s := range c.snaps {
		if s.turn == cur && s.path == path {
			return
		}
	}
	s := snapshot{turn: cur, path: path}
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() <= checkpointMaxFile {
		if data, err := os.ReadFile(path); err == nil {
			s.data, s.existed, s.mode = data, true, fi.Mode().Perm()
		}
	} else if err == nil {
		return // too large or not a regular file: not restorable
	}
	c.snaps = append(c.snaps, s)
}

func (c *Checkpoints) turnIndex(turn string) int {
	for i, t := range c.turns {
		if t == turn {
			return i
		}
	}
	return -1
}

// Since lists the files changed from turn on, sorted.
func (c *Checkpoints) Since(turn string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	from := c.turnIndex(turn)
	if from < 0 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range c.snaps {
		if s.turn >= from && !seen[s.path] {
			seen[s.path] = true
			out = append(out, s.path)
		}
	}
	sort.Strings(out)
	return out
}

// Change is what rewinding to a turn does to the files: those whose
// content it changes, and the lines it adds and removes across them.
type Change struct {
	Files      []string
	Insertions int
	Deletions  int
}

// firstSnapshots returns, per file, its content before turn from (the
// earliest snapshot from that turn on). Call with c.mu held.
func (c *Checkpoints) firstSnapshots(from int) map[string]snapshot {
	first := map[string]snapshot{}
	for _, s := range c.snaps {
		if s.turn < from {
			continue
		}
		if _, ok := first[s.path]; !ok {
			first[s.path] = s
		}
	}
	return first
}

// Preview reports what Restore(turn) would change, changing nothing. ok
// is false when no turn has that id.
func (c *Checkpoints) Preview(turn string) (ch Change, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	from := c.turnIndex(turn)
	if from < 0 {
		return Change{}, false
	}
	for path, s := range c.firstSnapshots(from) {
		cur, err := os.ReadFile(path)
		exists := err == nil
		if exists == s.existed && string(cur) == string(s.data) {
			continue
		}
		ins, del := lineChanges(string(cur), string(s.data))
		ch.Files = append(ch.Files, path)
		ch.Insertions += ins
		ch.Deletions += del
	}
	sort.Strings(ch.Files)
	return ch, true
}

// lineChanges counts the lines turning from into to adds and removes.
func lineChanges(from, to string) (ins, del int) {
	u, err := udiff.ToUnifiedDiff("a", "b", from, udiff.Lines(from, to), 0)
	if err != nil {
		return 0, 0
	}
	for _, h := range u.Hunks {
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				ins++
			case udiff.Delete:
				del++
			}
		}
	}
	return ins, del
}

// Restore puts every file changed from turn on back as it was before that
// turn (deleting files the turns created), forgets those turns, and
// returns the files restored.
func (c *Checkpoints) Restore(turn string) ([]string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	from := c.turnIndex(turn)
	if from < 0 {
		return nil, nil
	}
	first := c.firstSnapshots(from)
	var keep []snapshot
	for _, s := range c.snaps {
		if s.turn < from {
			keep = append(keep, s)
		}
	}
	var restored []string
	var errs []error
	for path, s := range first {
		var err error
		if s.existed {
			err = os.WriteFile(path, s.data, s.mode)
		} else if err = os.Remove(path); errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("restore %s: %w", path, err))
			continue
		}
		restored = append(restored, path)
	}
	sort.Strings(restored)
	c.snaps = keep
	c.turns = c.turns[:from]
	return restored, errors.Join(errs...)
}

// Gate wraps inner so that each allowed edit call records the files it is
// about to change.
func (c *Checkpoints) Gate(inner tool.Gate) tool.Gate {
	if inner == nil {
		inner = tool.AllowAll{}
	}
	return checkpointGate{inner: inner, c: c}
}

type checkpointGate struct {
	inner tool.Gate
	c     *Checkpoints
}

func (g checkpointGate) Before(ctx context.Context, call *tool.Call, t tool.Tool, input json.RawMessage) tool.Verdict {
	v := g.inner.Before(ctx, call, t, input)
	if v.Allow {
		in := input
		if v.Input != nil {
			in = v.Input
		}
		for _, p := range editPaths(t.Name(), in) {
			g.c.record(p)
		}
	}
	return v
}

func (g checkpointGate) After(ctx context.Context, call *tool.Call, t tool.Tool, input json.RawMessage, res *tool.Result) {
	g.inner.After(ctx, call, t, input, res)
}
