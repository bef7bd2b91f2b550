package session

import (
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
