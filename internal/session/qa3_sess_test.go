package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/llm"
)

// A session begun with a slash command is listed by the command, not by
// the text it expanded to (which reins records in the same message); its
// title from the last prompt is the command as typed.
func TestListNamesASessionBegunWithACommandByTheCommand(t *testing.T) {
	s := Store{Root: t.TempDir()}
	cwd := "/work/proj"
	header := "<command-message>deploy</command-message>\n<command-name>/deploy</command-name>\n<command-args>prod now</command-args>"
	session(t, s, cwd, "dddd-1111", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), func(r *recorder) {
		r.msg(&llm.Message{Role: llm.RoleUser, Content: []llm.ContentBlock{llm.TextBlock(header), llm.TextBlock("Deploy the service to prod now.")}})
		r.meta(&Entry{Type: TypeLastPrompt, LastPrompt: header + "Deploy the service to prod now."})
	})
	infos, err := s.List(cwd)
	if err != nil || len(infos) != 1 {
		t.Fatalf("List = %v, %v", infos, err)
	}
	if got := infos[0]; got.FirstPrompt != "/deploy" || got.Title != "/deploy prod now" {
		t.Errorf("FirstPrompt = %q, Title = %q; want /deploy and /deploy prod now", got.FirstPrompt, got.Title)
	}
	tr, err := Load(s.TranscriptPath(cwd, "dddd-1111"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.LastPrompt != "/deploy prod now" {
		t.Errorf("Transcript.LastPrompt = %q, want /deploy prod now", tr.LastPrompt)
	}
}

// A session whose first prompt is longer than the part of the file List
// reads (a pasted log, say) is still listed, found and continued.
func TestListFindsASessionWhoseFirstPromptIsHuge(t *testing.T) {
	s := Store{Root: t.TempDir()}
	cwd := "/work/proj"
	huge := strings.Repeat("log line\n", liteBytes/4)
	session(t, s, cwd, "eeee-1111", time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), func(r *recorder) {
		r.msg(user(huge))
		r.msg(&llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("read it")}})
	})
	infos, err := s.List(cwd)
	if err != nil || len(infos) != 1 {
		t.Fatalf("List = %v, %v; want the session", infos, err)
	}
	if !strings.HasPrefix(infos[0].FirstPrompt, "log line log line") || infos[0].Cwd == "" {
		t.Errorf("FirstPrompt = %.40q…, Cwd = %q", infos[0].FirstPrompt, infos[0].Cwd)
	}
	if latest, err := s.Latest(cwd); err != nil || latest.ID != "eeee-1111" {
		t.Errorf("Latest = %q, %v", latest.ID, err)
	}
	if _, err := s.Find("eeee-1111", cwd); err != nil {
		t.Errorf("Find: %v", err)
	}
}

// Resuming a transcript that exists but holds no readable message says
// so, naming the file, instead of claiming there is no such session.
func TestFindNamesATranscriptWithoutMessages(t *testing.T) {
	s := Store{Root: t.TempDir()}
	cwd := "/work/proj"
	p := s.TranscriptPath(cwd, "ffff-1111")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("\x00\x00garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{cwd, "/elsewhere"} {
		_, err := s.Find("ffff-1111", dir)
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "no message") {
			t.Errorf("Find from %s: %v; want ErrNotFound naming %s", dir, err, p)
		}
	}
}

// A session that stopped during a compaction (its boundary recorded, its
// summary not) resumes with the history it was compacting, which the file
// still holds, and goes on from there; nothing is lost on a later resume.
func TestLoadAfterACompactionThatNeverFinished(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	r := newRecorder(t, path, "s")
	r.msg(user("hello"))
	last := r.msg(&llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{llm.TextBlock("hi")}})
	b := &Entry{Type: TypeSystem, Subtype: SubtypeCompactBoundary, UUID: r.uuid(), LogicalParentUUID: last,
		CompactMetadata: &CompactMetadata{Trigger: "auto", PreTokens: 100}}
	r.meta(b) // parentUuid null, as Claude Code writes it
	tr, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Items) != 2 || tr.Boundary != nil || tr.Leaf != last || len(tr.Warnings) != 1 || tr.Warnings[0].Line != 3 {
		t.Fatalf("Items=%d Boundary=%v Leaf=%s Warnings=%v; want both messages, no boundary, leaf %s, one warning on line 3",
			len(tr.Items), tr.Boundary, tr.Leaf, tr.Warnings, last)
	}
	r.last = tr.Leaf
	r.msg(user("go on"))
	r.w.Close()
	tr, err = Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Items) != 3 {
		t.Errorf("after going on: %d items, want 3", len(tr.Items))
	}
}
