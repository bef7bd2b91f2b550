package tui

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPreviewCountsWhatARewindChanges(t *testing.T) {
	dir := t.TempDir()
	edited, created := filepath.Join(dir, "a.txt"), filepath.Join(dir, "new.txt")
	os.WriteFile(edited, []byte("a\nb\n"), 0o644)
	cp := &Checkpoints{}
	cp.Begin("u1")
	cp.record(edited)
	cp.record(created)
	os.WriteFile(edited, []byte("a\nc\nd\n"), 0o644)
	os.WriteFile(created, []byte("x\n"), 0o644)
	cp.Begin("u2")

	ch, ok := cp.Preview("u1")
	if !ok || len(ch.Files) != 2 || ch.Files[0] != edited || ch.Files[1] != created {
		t.Fatalf("Preview = %+v, %v", ch, ok)
	}
	// Back to "a\nb\n" adds b and removes c and d; the created file's one
	// line goes.
	if ch.Insertions != 1 || ch.Deletions != 3 {
		t.Errorf("insertions %d deletions %d, want 1 and 3", ch.Insertions, ch.Deletions)
	}
	if data, _ := os.ReadFile(edited); string(data) != "a\nc\nd\n" {
		t.Errorf("Preview changed the file: %q", data)
	}
	if ch, _ := cp.Preview("u2"); len(ch.Files) != 0 {
		t.Errorf("nothing changed since u2, Preview says %+v", ch)
	}
	if _, ok := cp.Preview("nope"); ok {
		t.Error("Preview of an unknown turn reported ok")
	}
	if _, err := cp.Restore("u1"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(edited); string(data) != "a\nb\n" {
		t.Errorf("after Restore: %q", data)
	}
	if _, err := os.Stat(created); !os.IsNotExist(err) {
		t.Errorf("the file the turn created is still there: %v", err)
	}
}
