package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"reins/internal/llm"
)

// fullDisk writes only the first cut bytes of the next write and fails it
// with ENOSPC, as a disk that fills up in the middle of a line does.
type fullDisk struct {
	*os.File
	cut   int
	armed bool
}

func (d *fullDisk) Write(p []byte) (int, error) {
	if !d.armed {
		return d.File.Write(p)
	}
	d.armed = false
	n, _ := d.File.Write(p[:d.cut])
	return n, syscall.ENOSPC
}

// A line cut short by a full disk is ended before the next line, so the
// lines recorded once space is back load: the next line used to be glued
// to the cut one and both were lost on resume.
func TestWriterEndsALineAFullDiskCutBeforeTheNextOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	disk := &fullDisk{cut: 40}
	w := NewWriter(path)
	w.wrap = func(f *os.File) appendFile { disk.File = f; return disk }
	defer w.Close()
	entry := func(uuid, parent, text string) *Entry {
		e := &Entry{Type: TypeUser, UUID: uuid, SessionID: "s", Message: llm.NewUserText(text),
			Timestamp: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Format(time.RFC3339)}
		if parent != "" {
			e.ParentUUID = &parent
		}
		return e
	}
	if err := w.Append(entry("u1", "", "first")); err != nil {
		t.Fatal(err)
	}
	disk.armed = true
	if err := w.Append(entry("u2", "u1", "lost to the full disk")); err == nil {
		t.Fatal("the failed write was not reported")
	}
	if err := w.Append(entry("u3", "u2", "after space came back")); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range tr.Items {
		texts = append(texts, it.Message.Content[0].Text)
	}
	if len(texts) != 2 || texts[0] != "first" || texts[1] != "after space came back" {
		t.Errorf("resumed history %q; want the first line and the one after the failure\nwarnings %v", texts, tr.Warnings)
	}
	if len(tr.Warnings) == 0 {
		t.Error("the cut line was not reported")
	}
}

// --resume of a transcript with nothing to resume says which of the
// reasons it is: an empty file, a file that is not JSON lines, or a
// sub-agent's transcript; the message was one vague line for all three.
func TestFindSaysWhyATranscriptHasNothingToResume(t *testing.T) {
	s := Store{Root: t.TempDir()}
	cwd := "/work/proj"
	for _, tc := range []struct {
		id, content, want string
	}{
		{"aaaa0000-0000-4000-8000-000000000001", "", "is empty"},
		{"aaaa0000-0000-4000-8000-000000000002", "module reins\n\ngo 1.26\n", "not a transcript"},
		{"aaaa0000-0000-4000-8000-000000000003", `{"parentUuid":null,"isSidechain":true,"type":"user","uuid":"x","message":{"role":"user","content":"hi"}}` + "\n", "sub-agent"},
	} {
		p := s.TranscriptPath(cwd, tc.id)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(tc.content), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, arg := range []string{tc.id, p} {
			_, err := s.Find(arg, cwd)
			if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Find(%s): %v; want ErrNotFound naming %s and saying it %s", arg, err, p, tc.want)
			}
		}
	}
}
