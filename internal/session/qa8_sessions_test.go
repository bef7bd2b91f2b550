package session

import (
	"context"
	"os"
	"testing"
	"time"

	"reins/internal/llm"
)

// LoadSettled ends the history at the last answer that closed a turn when
// the newest turn is still under way (a prompt and a tool call without its
// result), and keeps a history that ends with an answer as it is.
func TestLoadSettledEndsAtTheLastFinishedTurn(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s1")
	r.msg(user("hello"))
	answer := r.msg(assistant("m1", llm.TextBlock("hi there")))
	r.msg(user("alpha"))
	r.msg(assistant("m2", llm.TextBlock("let me look"), toolUse("toolu_1", "Bash", `{"command":"sleep 9"}`)))

	tr, err := LoadSettled(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Leaf != answer || len(tr.Repairs) != 0 || len(tr.Items) != 2 {
		t.Fatalf("leaf %s (want %s), %d repairs, %d items: want the history up to the answer, nothing repaired", tr.Leaf, answer, len(tr.Repairs), len(tr.Items))
	}

	r.msg(result("toolu_1", "done", false))
	last := r.msg(assistant("m3", llm.TextBlock("alpha done")))
	tr, err = LoadSettled(path)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Leaf != last || len(tr.Items) != 6 {
		t.Fatalf("leaf %s (want %s), %d items: a finished history must load whole", tr.Leaf, last, len(tr.Items))
	}
}

// A transcript a Writer holds open counts as busy for another process's
// Busy probe until the writer closes; one nobody records is not busy.
func TestBusyWhileAWriterHoldsTheTranscript(t *testing.T) {
	path := tempTranscript(t)
	r := newRecorder(t, path, "s1")
	r.msg(user("hello"))
	if !Busy(path) {
		t.Fatal("a transcript being recorded is not busy")
	}
	r.w.Close()
	if Busy(path) {
		t.Fatal("a closed transcript is busy")
	}
	w := NewWriter(path)
	defer w.Close()
	if err := w.Open(); err != nil {
		t.Fatal(err)
	}
	if !Busy(path) {
		t.Fatal("a transcript opened with Open before any append is not busy")
	}
}

// Cleanup leaves an old transcript that another process still records
// into (a terminal UI left open longer than cleanupPeriodDays): removed,
// every line that process records next would go to the removed file.
func TestCleanupKeepsATranscriptAnotherProcessRecords(t *testing.T) {
	s := Store{Root: t.TempDir()}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	old := now.Add(-31 * 24 * time.Hour)
	path := session(t, s, "/p", "idle", old, func(r *recorder) { r.msg(user("x")) })
	w := NewWriter(path)
	defer w.Close()
	if err := w.Open(); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(path, old, old)
	rep, err := s.Cleanup(context.Background(), 0, now, nil)
	if err != nil || len(rep.Errs) != 0 {
		t.Fatalf("Cleanup: %v %v", err, rep.Errs)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the transcript a writer holds was removed: %v (removed %v)", err, rep.Removed)
	}
}
