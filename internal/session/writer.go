package session

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// Writer appends entries to a transcript file. It is safe for concurrent
// use; each entry is one write of one line.
type Writer struct {
	path string

	mu  sync.Mutex // guards f and buf
	f   *os.File   // opened on first Append
	buf []byte
}

// NewWriter returns a writer for path. The file and its folder are created
// on the first Append, so a session that never records leaves nothing.
func NewWriter(path string) *Writer { return &Writer{path: path} }

// Path is the transcript's path.
func (w *Writer) Path() string { return w.path }

// Append writes e as one line.
func (w *Writer) Append(e *Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("record %s entry: %w", e.Type, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		if err := os.MkdirAll(filepath.Dir(w.path), 0o700); err != nil {
			return fmt.Errorf("create transcript folder: %w", err)
		}
		f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("open transcript: %w", err)
		}
		w.f = f
	}
	w.buf = append(append(w.buf[:0], line...), '\n')
	if _, err := w.f.Write(w.buf); err != nil {
		return fmt.Errorf("append to transcript %s: %w", w.path, err)
	}
	return nil
}

// Close closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}
