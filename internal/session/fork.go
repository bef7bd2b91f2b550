package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Fork copies the transcript at src into cwd's project folder under the
// session id newID (for --fork-session, or to continue in reins a session
// another tool recorded) and returns the new transcript's path. Every line
// keeps its fields and uuids; only sessionId changes. Lines that cannot be
// read are left out and reported. The source session's persisted tool
// results are copied too, so the fork keeps them if the source is
// cleaned up. An existing file at the destination is an error.
func (s Store) Fork(src, cwd, newID string) (string, []Warning, error) {
	if newID == "" || strings.ContainsAny(newID, `/\`) {
		return "", nil, fmt.Errorf("fork session: bad session id %q", newID)
	}
	dst := s.TranscriptPath(cwd, newID)
	in, err := os.Open(src)
	if err != nil {
		return "", nil, fmt.Errorf("fork session: %w", err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return "", nil, fmt.Errorf("fork session: %w", err)
	}
	if _, err := os.Lstat(dst); err == nil {
		return "", nil, fmt.Errorf("fork session: %s already exists", dst)
	}
	// The copy is made beside the destination and put in place whole: a
	// process killed while copying must not leave a transcript holding
	// only the first part of the history, which a later resume of the id
	// would pick as the latest copy.
	out, err := os.CreateTemp(filepath.Dir(dst), newID+".jsonl.part-*")
	if err != nil {
		return "", nil, fmt.Errorf("fork session: %w", err)
	}
	tmp := out.Name()
	defer os.Remove(tmp)
	warns, err := copyLines(in, out, newID)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// A link, not a rename: a transcript that appeared meanwhile is
		// not replaced.
		err = os.Link(tmp, dst)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			// A file system without hard links.
			if _, serr := os.Lstat(dst); serr == nil {
				err = fmt.Errorf("%s already exists", dst)
			} else {
				err = os.Rename(tmp, dst)
			}
		}
	}
	if err != nil {
		return "", warns, fmt.Errorf("fork session %s: %w", src, err)
	}
	oldID := strings.TrimSuffix(filepath.Base(src), ".jsonl")
	from := filepath.Join(filepath.Dir(src), oldID, "tool-results")
	if err := copyDir(from, s.ToolResultsDir(cwd, newID)); err != nil {
		warns = append(warns, Warning{Msg: fmt.Sprintf("persisted tool results not copied: %v", err)})
	}
	return dst, warns, nil
}

// copyLines copies r to w line by line with sessionId set to id.
func copyLines(r io.Reader, w io.Writer, id string) ([]Warning, error) {
	var warns []Warning
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	newID, _ := json.Marshal(id)
	err := eachLine(r, func(line []byte, n int, complete bool) error {
		if len(bytes.TrimSpace(line)) == 0 {
			return nil
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(line, &m); err != nil {
			msg := "unreadable line left out"
			if !complete {
				msg = "incomplete last line left out"
			}
			warns = append(warns, Warning{Line: n, Msg: msg})
			return nil
		}
		if _, ok := m["sessionId"]; ok {
			m["sessionId"] = newID
		}
		buf.Reset()
		if err := enc.Encode(m); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
		_, err := w.Write(buf.Bytes())
		return err
	})
	return warns, err
}

// copyDir copies the regular files of from into to (hard links when the
// file system allows). A missing source is not an error.
func copyDir(from, to string) error {
	ents, err := os.ReadDir(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o700); err != nil {
		return err
	}
	var errs []error
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		src, dst := filepath.Join(from, e.Name()), filepath.Join(to, e.Name())
		if os.Link(src, dst) == nil {
			continue
		}
		errs = append(errs, copyFile(src, dst))
	}
	return errors.Join(errs...)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return errors.Join(err, out.Close())
}

// CatchUp makes the transcript at own hold everything the transcript at
// other holds, when they are copies of one session of which one went
// further: own's lines, read as JSON, must be the first lines of other's
// (or other's the first of own's). The lines other has beyond own are
// appended to own. It reports whether the two are such copies; when they
// are not (each went on on its own), own is left as it was.
func CatchUp(own, other string) (bool, error) {
	a, err := canonicalLines(own)
	if err != nil {
		return false, err
	}
	b, err := canonicalLines(other)
	if err != nil {
		return false, err
	}
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i].canon != b[i].canon {
			return false, nil
		}
	}
	if len(b) <= len(a) {
		return true, nil
	}
	w := NewWriter(own)
	defer w.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.openLocked(); err != nil {
		return false, err
	}
	var rest []byte
	for _, l := range b[len(a):] {
		rest = append(append(rest, l.raw...), '\n')
	}
	if _, err := w.f.Write(rest); err != nil {
		return false, fmt.Errorf("bring %s up to date: %w", own, err)
	}
	return true, nil
}

// canonLine is a transcript line as written and in a canonical form
// (its JSON re-encoded with sorted keys), to compare copies written by
// different programs.
type canonLine struct {
	raw   []byte
	canon string
}

// canonicalLines reads the JSON lines of a transcript; lines that are not
// JSON (a torn last line) are left out.
func canonicalLines(path string) ([]canonLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []canonLine
	err = eachLine(f, func(line []byte, _ int, _ bool) error {
		var v any
		if len(bytes.TrimSpace(line)) == 0 || json.Unmarshal(line, &v) != nil {
			return nil
		}
		c, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		out = append(out, canonLine{raw: bytes.Clone(line), canon: string(c)})
		return nil
	})
	return out, err
}
