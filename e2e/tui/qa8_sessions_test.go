package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/llm/llmtest"
)

// A terminal UI idle after a turn still holds its session: reins --resume
// of it elsewhere says it is open in another reins. After /clear the UI has
// let it go, and resuming it says nothing of the kind (the UI kept the old
// transcript open until it exited).
func TestQA8ClearLetsGoOfTheSessionLeft(t *testing.T) {
	side := llmtest.Reply("side answer")
	side.ResetPrefix = true
	later := llmtest.Reply("later answer")
	later.ResetPrefix = true
	tt := newTerm(t, llmtest.Reply("one"), side, later)
	tt.start()
	tt.ready()
	tt.prompt("first question")
	tt.waitFor("● one")
	paths := tt.sb.Transcripts(t)
	if len(paths) != 1 {
		t.Fatalf("transcripts %v, want the session's", paths)
	}
	id := strings.TrimSuffix(filepath.Base(paths[0]), ".jsonl")

	r := tt.sb.Run(t, "", "-p", "side question", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("resume beside the UI: code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "open in another reins") {
		t.Errorf("resuming the session the UI holds said nothing of it: %q", r.Stderr)
	}

	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	r = tt.sb.Run(t, "", "-p", "later question", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("resume after /clear: code %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stderr, "open in another reins") {
		t.Errorf("after /clear the UI still holds the session it left: %q", r.Stderr)
	}
}

// The /resume list's choice of a session that another reins is running
// (here one waiting on a tool call) goes on from the last finished turn and
// says so, as reins --resume does: it took in the other's running turn and
// answered its tool call with a made-up error.
func TestQA8ResumeListOfASessionRunningElsewhere(t *testing.T) {
	turn := func(match string, b llmtest.Block) llmtest.Turn {
		return llmtest.Turn{MatchText: match, Blocks: []llmtest.Block{b}, ResetPrefix: true}
	}
	tt := newTerm(t,
		turn("hello", llmtest.Text("hi there")),
		turn("alpha", llmtest.ToolUse("toolu_A1", "Bash", map[string]any{"command": "while [ ! -f go ]; do sleep 0.05; done; echo A-out"})),
		turn("beta", llmtest.Text("beta done")),
		turn("A-out", llmtest.Text("alpha done")),
	)
	sb := tt.sb
	if r := sb.Run(t, "", "-p", "hello"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	path := sb.Transcripts(t)[0]
	id := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	other := sb.Command(t, ctx, "-p", "alpha", "--resume", id, "--allowedTools", "Bash")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		sb.Write(t, "go", "")
		other.Wait()
	}()
	for {
		if data, _ := os.ReadFile(path); bytes.Contains(data, []byte(`"toolu_A1"`)) {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("the other reins never recorded its tool call")
		}
		time.Sleep(20 * time.Millisecond)
	}

	tt.start()
	tt.ready()
	tt.prompt("/resume")
	tt.waitFor("Resume a conversation")
	tt.typeText("hello")
	tt.keys("Enter")
	tt.waitFor("open in another reins")
	tt.prompt("beta")
	tt.waitFor("beta done")
	var req *llmtest.Request
	for _, r := range tt.srv.Requests() {
		if strings.Contains(r.LastUserText(), "beta") {
			req = r
		}
	}
	if h := messageTexts(req); strings.Contains(h, "alpha") || strings.Contains(h, "No result was recorded") || !strings.Contains(h, "hi there") {
		t.Fatalf("the resumed conversation is not the finished history alone:\n%s", h)
	}
}

// reins --resume WORDS that name no session opens the list of earlier
// conversations filtered by them, as claude --resume takes a search term;
// it ended with "no such session".
func TestQA8ResumeWithSearchWordsOpensTheFilteredList(t *testing.T) {
	next := llmtest.Reply("three")
	next.ResetPrefix = true
	second := llmtest.Reply("two")
	second.ResetPrefix = true
	tt := newTerm(t, llmtest.Reply("one"), second, next)
	for _, p := range []string{"fix the login redirect", "write the changelog"} {
		if r := tt.sb.Run(t, "", "-p", p); r.Code != 0 {
			t.Fatalf("run %q: code %d: %s", p, r.Code, r.Stderr)
		}
	}
	tt.start("--resume", "login")
	tt.waitFor("Do you trust the files in this folder?")
	tt.keys("Enter")
	tt.waitUntil("the list filtered to the login session", func(s string) bool {
		return strings.Contains(s, "Resume a conversation") && strings.Contains(s, "fix the login redirect") && !strings.Contains(s, "write the changelog")
	})
	tt.keys("Enter")
	tt.waitFor("Resumed")
	tt.prompt("and now?")
	tt.waitFor("three")
	if h := messageTexts(tt.requests(3)[2]); !strings.Contains(h, "fix the login redirect") {
		t.Fatalf("the resumed conversation lacks its history:\n%s", h)
	}
}
