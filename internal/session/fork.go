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
