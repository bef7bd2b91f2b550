package tui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// historyMax is how many entries are kept in memory.
const historyMax = 1000

// history is the project's input history, oldest first, appended to a
// JSON-lines file ({"display":..., "timestamp":ms}).
type history struct {
	path    string
	entries []string
}

// loadHistory reads the history file; a missing or damaged file gives
// what could be read.
func loadHistory(path string) *history {
	h := &history{path: path}
	if path == "" {
		return h
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return h
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e struct {
			Display string `json:"display"`
		}
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Display != "" {
			h.push(e.Display)
		}
	}
	if n := len(h.entries); n > historyMax {
		h.entries = h.entries[n-historyMax:]
	}
	return h
}

func (h *history) push(s string) {
	if n := len(h.entries); n > 0 && h.entries[n-1] == s {
		return
	}
	h.entries = append(h.entries, s)
}

// add records an entry in memory and on disk.
func (h *history) add(s string, now time.Time) error {
	if s == "" {
		return nil
	}
	h.push(s)
	if len(h.entries) > 2*historyMax {
		h.entries = append([]string(nil), h.entries[len(h.entries)-historyMax:]...)
	}
	if h.path == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(h.path), 0o700); err != nil {
		return fmt.Errorf("save history %s: %w", h.path, err)
	}
	f, err := os.OpenFile(h.path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("save history %s: %w", h.path, err)
	}
	defer f.Close()
	line, _ := json.Marshal(struct {
		Display   string `json:"display"`
		Timestamp int64  `json:"timestamp"`
	}{s, now.UnixMilli()})
	if _, err := f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("save history %s: %w", h.path, err)
	}
	return nil
}
