package session

import (
	"context"
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

// Fork puts the copy in place only once it is whole: a reins killed while
// copying a long transcript (a Claude Code session being continued) left
// the first part under the session's id, and the next --resume of the id
// took that part, newer than the original, and lost the rest.
func TestForkShowsNoPartialCopy(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src.jsonl")
	if err := syscall.Mkfifo(src, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	s := Store{Root: filepath.Join(dir, "root")}
	const id = "aaaa0000-0000-4000-8000-0000000000aa"
	dst := s.TranscriptPath("/work/proj", id)
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Fork(src, "/work/proj", id)
		done <- err
	}()
	w, err := os.OpenFile(src, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	first := `{"type":"user","uuid":"u1","sessionId":"old","message":{"role":"user","content":"first"}}` + "\n"
	if _, err := w.WriteString(first); err != nil {
		t.Fatal(err)
	}
	// Wait until the first line has been copied somewhere under the
	// project folder, then look: the transcript must not be there yet.
	deadline := time.Now().Add(10 * time.Second)
	for {
		var copied int64
		filepath.Walk(filepath.Dir(dst), func(_ string, fi os.FileInfo, err error) error {
			if err == nil && fi.Mode().IsRegular() {
				copied += fi.Size()
			}
			return nil
		})
		if copied > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first line was never copied")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := os.Stat(dst); err == nil {
		t.Error("the transcript exists before the copy is whole")
	}
	w.WriteString(`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"old","message":{"role":"assistant","content":[{"type":"text","text":"second"}]}}` + "\n")
	w.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(dst)
	if err != nil || strings.Count(string(data), "\n") != 2 || !strings.Contains(string(data), id) {
		t.Fatalf("copy %q (%v): want both lines under the new id", data, err)
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dst), "*part*")); len(m) != 0 {
		t.Errorf("left behind: %v", m)
	}
}

// Clean-up removes an old fork copy its process did not live to put in
// place, and leaves a recent one (a fork under way) alone.
func TestCleanupRemovesOldPartialForkCopies(t *testing.T) {
	s := Store{Root: t.TempDir()}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	dir := s.ProjectDir("/p")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "aaaa.jsonl.part-123")
	recent := filepath.Join(dir, "bbbb.jsonl.part-456")
	for _, p := range []string{old, recent} {
		if err := os.WriteFile(p, []byte("{}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Chtimes(old, now.Add(-40*24*time.Hour), now.Add(-40*24*time.Hour))
	os.Chtimes(recent, now.Add(-time.Minute), now.Add(-time.Minute))
	if _, err := s.Cleanup(context.Background(), 0, now, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); err == nil {
		t.Error("the old partial copy is still there")
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("the recent partial copy was removed: %v", err)
	}
}

// Find takes the title given with /rename: this folder's session of that
// title first, even when the title was set long before the file's last
// 64 KB; a title several other folders' sessions share is ambiguous and
// the error names them.
func TestFindByCustomTitle(t *testing.T) {
	s := Store{Root: t.TempDir()}
	base := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	long := strings.Repeat("x", 100<<10)
	session(t, s, "/a", "11111111-0000-4000-8000-000000000001", base, func(r *recorder) {
		r.msg(user("first"))
		r.meta(&Entry{Type: TypeCustomTitle, CustomTitle: "auth work"})
		r.msg(user(long))
	})
	session(t, s, "/b", "11111111-0000-4000-8000-000000000002", base.Add(time.Hour), func(r *recorder) {
		r.msg(user("second"))
		r.meta(&Entry{Type: TypeCustomTitle, CustomTitle: "auth work"})
	})
	info, err := s.Find("auth work", "/a")
	if err != nil || info.ID != "11111111-0000-4000-8000-000000000001" {
		t.Errorf("Find from /a = %s, %v; want /a's session", info.ID, err)
	}
	_, err = s.Find("auth work", "/elsewhere")
	if err == nil || !strings.Contains(err.Error(), "2 sessions have that title") || !strings.Contains(err.Error(), "11111111-0000-4000-8000-000000000002") {
		t.Errorf("Find from /elsewhere: %v; want an ambiguity naming both", err)
	}
	if _, err := s.Find("no such title", "/a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown title: %v, want ErrNotFound", err)
	}
}

// A line of a kind reins does not know (a newer Claude Code's) that is a
// link of the chain stays one: the message after it follows its parent
// back, rather than being bridged to the line before it in the file, which
// here is another branch.
func TestLoadFollowsTheChainThroughAnUnknownKindOfLine(t *testing.T) {
	lines := []string{
		`{"parentUuid":null,"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"question"}}`,
		`{"parentUuid":"u1","type":"assistant","uuid":"old","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"abandoned branch"}]}}`,
		`{"parentUuid":"u1","type":"future-kind","uuid":"x1","sessionId":"s","data":{"k":1}}`,
		`{"parentUuid":"x1","type":"assistant","uuid":"a1","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"kept answer"}]}}`,
	}
	tr, err := Read(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range tr.Items {
		for _, b := range it.Message.Content {
			texts = append(texts, b.Text)
		}
	}
	if strings.Join(texts, "|") != "question|kept answer" {
		t.Errorf("history %q, want the question and the kept answer only", texts)
	}
	if len(tr.Warnings) != 0 {
		t.Errorf("warnings %v", tr.Warnings)
	}
}

// A message line that cannot be used (no message, or the wrong role) is
// left out of the history with a warning but still links the chain.
func TestLoadKeepsTheChainThroughAnUnusableMessageLine(t *testing.T) {
	lines := []string{
		`{"parentUuid":null,"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"question"}}`,
		`{"parentUuid":"u1","type":"assistant","uuid":"old","sessionId":"s","message":{"role":"assistant","content":[{"type":"text","text":"abandoned branch"}]}}`,
		`{"parentUuid":"u1","type":"assistant","uuid":"bad","sessionId":"s","message":{"role":"user","content":"mislabelled"}}`,
		`{"parentUuid":"bad","type":"user","uuid":"u2","sessionId":"s","message":{"role":"user","content":"follow-up"}}`,
	}
	tr, err := Read(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, it := range tr.Items {
		for _, b := range it.Message.Content {
			texts = append(texts, b.Text)
		}
	}
	if strings.Join(texts, "|") != "question|follow-up" {
		t.Errorf("history %q, want the question and the follow-up", texts)
	}
	if len(tr.Warnings) != 1 || tr.Warnings[0].Line != 3 {
		t.Errorf("warnings %v, want one for line 3", tr.Warnings)
	}
}

// CatchUp brings a copy of a session up to date with a copy that went
// further (the same lines, whatever the JSON key order or spacing, then
// more), and leaves alone a copy that went another way.
func TestCatchUpAppendsWhatTheOtherCopyHasMore(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	l1 := `{"type":"user","uuid":"u1","message":{"role":"user","content":"hi"}}`
	l1other := `{"uuid": "u1", "type": "user", "message": {"content": "hi", "role": "user"}}`
	l2 := `{"type":"assistant","uuid":"a1","parentUuid":"u1","message":{"role":"assistant","content":[]}}`
	l2b := `{"type":"assistant","uuid":"b1","parentUuid":"u1","message":{"role":"assistant","content":[]}}`

	own := write("own.jsonl", l1)
	same, err := CatchUp(own, write("further.jsonl", l1other, l2))
	if err != nil || !same {
		t.Fatalf("CatchUp = %v, %v; want the copies recognised", same, err)
	}
	if data, _ := os.ReadFile(own); string(data) != l1+"\n"+l2+"\n" {
		t.Errorf("own copy %q, want the missing line appended", data)
	}
	if same, err := CatchUp(own, write("behind.jsonl", l1)); err != nil || !same {
		t.Errorf("a copy behind: %v, %v; want recognised, nothing to add", same, err)
	}
	before, _ := os.ReadFile(own)
	if same, err := CatchUp(own, write("other-way.jsonl", l1, l2b, l2)); err != nil || same {
		t.Errorf("a copy that went another way: %v, %v; want not the same", same, err)
	}
	if after, _ := os.ReadFile(own); string(after) != string(before) {
		t.Errorf("own copy changed to %q", after)
	}
}

// A writer's mirror hears each line once it is in the file, without its
// newline, also the line after a torn one.
func TestWriterMirrorHearsEachWrittenLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	w := NewWriter(path)
	defer w.Close()
	var heard []string
	w.SetMirror(func(line []byte) { heard = append(heard, string(line)) })
	for _, id := range []string{"u1", "u2"} {
		if err := w.Append(&Entry{Type: TypeUser, UUID: id, SessionID: "s", Message: llm.NewUserText(id)}); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if strings.Join(heard, "\n")+"\n" != string(data) {
		t.Errorf("mirror heard %q; file holds %q", heard, data)
	}
}

// Claude Code records parallel calls as one entry per call and each
// result with its call's entry as parent, so the chain from the leaf
// passes through the last result only. Every result is resumed, in the
// message right after the calls; the first used to be replaced by a
// "no result was recorded" error.
func TestLoadKeepsEveryResultOfClaudeCodesParallelCalls(t *testing.T) {
	lines := []string{
		`{"parentUuid":null,"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"read two"}}`,
		`{"parentUuid":"u1","type":"assistant","uuid":"a1","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]}}`,
		`{"parentUuid":"a1","type":"assistant","uuid":"a2","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Bash","input":{"command":"pwd"}}],"stop_reason":"tool_use"}}`,
		`{"parentUuid":"a1","type":"user","uuid":"r1","sessionId":"s","sourceToolAssistantUUID":"a1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.txt"}]}}`,
		`{"parentUuid":"a2","type":"user","uuid":"r2","sessionId":"s","sourceToolAssistantUUID":"a2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_2","content":"/x"}]}}`,
		`{"parentUuid":"r2","type":"assistant","uuid":"a3","sessionId":"s","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn"}}`,
	}
	tr, err := Read(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Items) != 4 {
		t.Fatalf("%d items, want prompt, calls, results, answer", len(tr.Items))
	}
	results := map[string]string{}
	for _, b := range tr.Items[2].Message.Content {
		results[b.ToolUseID] = b.ResultText()
	}
	if results["toolu_1"] != "a.txt" || results["toolu_2"] != "/x" {
		t.Errorf("results after the calls: %v, want both recorded ones", results)
	}
	if len(tr.Warnings) != 0 || len(tr.Repairs) != 0 {
		t.Errorf("warnings %v, repairs %d: want none", tr.Warnings, len(tr.Repairs))
	}
}
