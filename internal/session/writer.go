package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Writer appends entries to a transcript file. It is safe for concurrent
// use; each entry is one write of one line.
type Writer struct {
	path string

	mu sync.Mutex // guards f and torn
	f  appendFile // opened on first Append
	// torn is set when a write failed after writing part of its line (a
	// full disk): the file may end mid-line, and the next line must not
	// be glued to that part.
	torn bool
	// wrap, when set, stands between the writer and the file it opened
	// (tests inject write failures with it).
	wrap func(*os.File) appendFile
	// mirror hears each line once it is written (see SetMirror).
	mirror func(line []byte)

	prepared chan struct{} // closed once Prepare's folder creation ended; nil without Prepare
}

// Prepare creates the transcript's folder in the background, so that the
// first Append (on the way to a session's first model request) does not
// wait for it; the file itself still appears only with the first line.
// Call it at most once, before the first Append.
func (w *Writer) Prepare() {
	done := make(chan struct{})
	w.prepared = done
	go func() {
		defer close(done)
		os.MkdirAll(filepath.Dir(w.path), 0o700) // openLocked reports any failure
	}()
}

// NewWriter returns a writer for path. The file and its folder are created
// on the first Append, so a session that never records leaves nothing.
// Appending to an existing transcript (a resumed session) is safe even when
// the last line was torn by a crash: the torn line is closed first so that
// it cannot swallow the next entry.
func NewWriter(path string) *Writer {
	return &Writer{path: path}
}

// Path is the transcript's path.
func (w *Writer) Path() string { return w.path }

// Append writes e as one line.
func (w *Writer) Append(e *Entry) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	// Entry.MarshalJSON directly, not through an Encoder, which would
	// scan the whole line again to validate it.
	line, err := e.MarshalJSON()
	if err != nil {
		return fmt.Errorf("record %s entry: %w", e.Type, err)
	}
	line = append(line, '\n')
	if w.f == nil {
		if err := w.openLocked(); err != nil {
			return err
		}
	}
	if w.torn {
		line = append([]byte{'\n'}, line...)
	}
	if n, err := w.f.Write(line); err != nil {
		// A part of the line reached the file: end it before the next
		// one, or the loader would lose both.
		w.torn = w.torn && n == 0 || n > 0
		return fmt.Errorf("append to transcript %s: %w", w.path, err)
	}
	w.torn = false
	if w.mirror != nil {
		w.mirror(bytes.TrimSuffix(bytes.TrimPrefix(line, []byte{'\n'}), []byte{'\n'}))
	}
	return nil
}

// SetMirror makes fn hear every line written from now on, in order, once
// it is in the file (the Agent SDK's session mirror). fn runs under the
// writer's lock and must not keep line. Call it before the first Append.
func (w *Writer) SetMirror(fn func(line []byte)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.mirror = fn
}

// appendFile is what a Writer needs of its file.
type appendFile interface {
	Write(p []byte) (int, error)
	ReadAt(p []byte, off int64) (int, error)
	Stat() (os.FileInfo, error)
	Close() error
}

// openLocked opens the file for appending, ending a torn last line.
func (w *Writer) openLocked() error {
	if w.prepared != nil {
		<-w.prepared
	}
	var f *os.File
	// Twice: another reins cleaning up old sessions may remove the empty
	// folder between its creation and the file's.
	for try := 0; ; try++ {
		if err := os.MkdirAll(filepath.Dir(w.path), 0o700); err != nil {
			return fmt.Errorf("create transcript folder: %w", err)
		}
		var err error
		f, err = os.OpenFile(w.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
		if err == nil {
			break
		}
		if try == 0 && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		return fmt.Errorf("open transcript: %w", err)
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err != nil && err != io.EOF {
			f.Close()
			return fmt.Errorf("open transcript %s: %w", w.path, err)
		}
		if last[0] != '\n' {
			if _, err := f.Write([]byte{'\n'}); err != nil {
				f.Close()
				return fmt.Errorf("repair transcript %s: %w", w.path, err)
			}
		}
	}
	shareLock(f)
	w.f = f
	if w.wrap != nil {
		w.f = w.wrap(f)
	}
	return nil
}

// Open opens the transcript now rather than at the first Append, so that
// Busy sees this process as recording it from the start (a resumed
// session that has not recorded anything yet).
func (w *Writer) Open() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f != nil {
		return nil
	}
	return w.openLocked()
}

// Close closes the file.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.prepared != nil {
		<-w.prepared
	}
	if w.f == nil {
		return nil
	}
	err := w.f.Close()
	w.f = nil
	return err
}
