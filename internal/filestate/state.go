package filestate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"time"
)

// ErrNotRead is returned by Check for a file the session has not read.
var ErrNotRead = errors.New("file has not been read in this session")

// ModifiedError is returned by Check when a file changed on disk after it
// was read.
type ModifiedError struct {
	Path   string
	ReadAt time.Time // when the session last read or wrote it
}

func (e *ModifiedError) Error() string {
	return fmt.Sprintf("%s was modified on disk after it was last read (at %s)", e.Path, e.ReadAt.Format(time.TimeOnly))
}

// Entry is what the session knows about one file.
type Entry struct {
	Path    string    // resolved absolute path
	Hash    string    // hex SHA-256 of the whole file at the time
	Size    int64     // bytes on disk
	ModTime time.Time // modification time on disk
	// Full reports that the whole file was shown (or written); otherwise
	// Offset and Limit say which lines were: Offset is the first line
	// (1-based), Limit the number of lines (0 means to the end).
	Full          bool
	Offset, Limit int
	// ReadAt is when the entry was recorded.
	ReadAt time.Time

	seq uint64 // recording order, for Recent
}

// Hash returns the hex SHA-256 of b, the form Entry.Hash uses.
func Hash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// EntryFor builds an Entry for path from its full content and stat.
func EntryFor(path string, content []byte, info fs.FileInfo) Entry {
	e := Entry{Path: path, Hash: Hash(content), Full: true}
	if info != nil {
		e.Size, e.ModTime = info.Size(), info.ModTime()
	}
	return e
}

// State is one session's record of files read. The zero value is ready to
// use.
type State struct {
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	mu      sync.Mutex
	entries map[string]*Entry // by path; guarded by mu
	seq     uint64            // guarded by mu
}

// New returns an empty State.
func New() *State { return &State{} }

func (s *State) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Record stores e (replacing any entry for the same path) and stamps it
// with the current time.
func (s *State) Record(e Entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entries == nil {
		s.entries = map[string]*Entry{}
	}
	s.seq++
	e.seq = s.seq
	e.ReadAt = s.now()
	s.entries[e.Path] = &e
}

// Get returns the entry for path.
func (s *State) Get(path string) (Entry, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[path]
	if !ok {
		return Entry{}, false
	}
	return *e, true
}

// Forget drops the entry for path.
func (s *State) Forget(path string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.entries, path)
}

// Clear drops every entry (compaction does this before it restores the
// few files it keeps).
func (s *State) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = nil
}

// Len is the number of files recorded.
func (s *State) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// Recent returns up to n entries, most recently recorded first; n <= 0
// means all.
func (s *State) Recent(n int) []Entry {
	s.mu.Lock()
	out := make([]Entry, 0, len(s.entries))
	for _, e := range s.entries {
		out = append(out, *e)
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Entry) int {
		switch {
		case a.seq > b.seq:
			return -1
		case a.seq < b.seq:
			return 1
		}
		return 0
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// Check reports whether path may be changed: it must have been recorded,
// and the file on disk (given by its stat and full current content) must
// be what was recorded. A changed modification time alone is not a
// change when the content hash still matches (editors and git touch
// files). It returns nil, ErrNotRead, or a *ModifiedError.
func (s *State) Check(path string, info fs.FileInfo, content []byte) error {
	e, ok := s.Get(path)
	if !ok {
		return fmt.Errorf("%s: %w", path, ErrNotRead)
	}
	if info != nil && info.ModTime().Equal(e.ModTime) && info.Size() == e.Size {
		return nil
	}
	if content != nil && Hash(content) == e.Hash {
		return nil
	}
	return &ModifiedError{Path: path, ReadAt: e.ReadAt}
}
