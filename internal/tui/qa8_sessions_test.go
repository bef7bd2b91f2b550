package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"reins/internal/engine"
	"reins/internal/session"
)

// fakeSessions lists fixed sessions and records which one was resumed.
type fakeSessions struct {
	infos   []session.Info
	resumed chan string
	base    engine.Config // of the harness's session
}

func (f *fakeSessions) List() ([]session.Info, error) { return f.infos, nil }

func (f *fakeSessions) Resume(_ context.Context, info session.Info) (*engine.Session, error) {
	f.resumed <- info.ID
	cfg := f.base
	cfg.SessionID = info.ID
	return engine.New(cfg), nil
}

func newFakeSessions() *fakeSessions {
	now := time.Now()
	return &fakeSessions{resumed: make(chan string, 1), infos: []session.Info{
		{ID: "11111111-aaaa-4aaa-8aaa-111111111111", Modified: now, FirstPrompt: "fix the login redirect", Title: "now run the tests"},
		{ID: "22222222-bbbb-4bbb-8bbb-222222222222", Modified: now, FirstPrompt: "write the changelog", Title: "auth refactor", CustomTitle: "auth refactor"},
	}}
}

func (f *fakeSessions) wait(t *testing.T) string {
	t.Helper()
	select {
	case id := <-f.resumed:
		return id
	case <-time.After(10 * time.Second):
		t.Fatal("no session was resumed")
		return ""
	}
}

// Typing in the /resume list finds a session by words of its first
// prompt, though the row shows its last prompt: the filter matched only
// the row's text.
func TestResumeListFindsASessionByItsFirstPrompt(t *testing.T) {
	f := newFakeSessions()
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) { f.base = o.Session.Config(); o.Sessions = f }})
	h.typeText("/resume")
	h.key("enter")
	h.waitFor("Resume a conversation", "now run the tests")
	h.typeText("login redirect")
	h.key("enter")
	if id := f.wait(t); id != f.infos[0].ID {
		t.Fatalf("resumed %s, want the session whose first prompt has the words", id)
	}
}

// /resume NAME resumes the session given that name with /rename, as
// claude --resume NAME does; other words open the list filtered by them.
func TestResumeCommandTakesASessionsName(t *testing.T) {
	f := newFakeSessions()
	h := newHarness(t, nil, harnessOpts{opts: func(o *Options) { f.base = o.Session.Config(); o.Sessions = f }})
	h.typeText("/resume auth refactor")
	h.key("enter")
	if id := f.wait(t); id != f.infos[1].ID {
		t.Fatalf("resumed %s, want the session named auth refactor", id)
	}
	h.typeText("/resume changelog")
	h.key("enter")
	h.waitUntil("the list filtered to the changelog session", func(s string) bool {
		return strings.Contains(s, "Resume a conversation") && strings.Contains(s, "changelog") && !strings.Contains(s, "now run the tests")
	})
}
