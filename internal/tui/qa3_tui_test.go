package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	xansi "github.com/charmbracelet/x/ansi"

	"reins/internal/llm/llmtest"
	"reins/internal/tool"
	"reins/internal/tools/askuser"
)

// The tallest view stays counted until frameWindow after a later view
// replaced it, since Bubble Tea may still show it; the current view is
// counted however old it is.
func TestQA3FrameHeightsKeepsTheTallestRecentView(t *testing.T) {
	var f frameHeights
	t0 := time.Unix(1000, 0)
	f.note(30, t0)
	if got := f.tallest(t0.Add(time.Hour)); got != 30 {
		t.Fatalf("current view: tallest = %d, want 30", got)
	}
	f.note(5, t0.Add(time.Hour))
	if got := f.tallest(t0.Add(time.Hour + frameWindow/2)); got != 30 {
		t.Fatalf("just replaced: tallest = %d, want 30", got)
	}
	f.note(7, t0.Add(time.Hour+frameWindow/2))
	if got := f.tallest(t0.Add(time.Hour + 2*frameWindow)); got != 7 {
		t.Fatalf("long replaced: tallest = %d, want 7", got)
	}
}

// Until Bubble Tea has drawn its first frame, whatever is waiting to be
// printed (a resumed conversation) goes out in one print: a second print
// would land on top of the first. After that, a long print is cut into
// pieces that fit below the live area.
func TestQA3PrintsInOnePieceAtStartThenInPieces(t *testing.T) {
	now := time.Unix(1000, 0)
	m := newModel(context.Background(), Options{Now: func() time.Time { return now }, NoColor: true}, &bridge{})
	m.width, m.height = 80, 24
	m.statusText = "status" // no session to ask
	long := func() {
		m.pending = nil
		for i := 0; i < 100; i++ {
			m.pending = append(m.pending, fmt.Sprintf("line %d", i))
		}
	}
	long()
	if m.printPending() == nil || len(m.pending) != 0 {
		t.Fatalf("at start: %d of 100 lines left for later prints, want 0", len(m.pending))
	}
	m.printing = false
	now = now.Add(2 * frameWindow)
	m.View()
	now = now.Add(2 * frameWindow)
	long()
	if m.printPending() == nil || len(m.pending) == 0 || len(m.pending) >= 100 {
		t.Fatalf("later: %d of 100 lines left for later prints, want some", len(m.pending))
	}
}

// The slash menu's descriptions start in one column even when a label
// with its argument hint is longer than 20 columns ("/compact
// [instructions]" used to push its description out of line).
func TestQA3SlashMenuDescriptionsLineUp(t *testing.T) {
	m := newModel(context.Background(), Options{NoColor: true}, &bridge{})
	m.comp = &completion{kind: '/', items: m.cmds.complete("co")}
	m.comp.sel = -1 // no highlighted row
	cols := map[string]int{}
	for _, line := range strings.Split(xansi.Strip(m.completionView(100)), "\n") {
		for _, desc := range []string{"Summarise the conversation", "View settings", "Show the session's cost"} {
			if i := strings.Index(line, desc); i >= 0 {
				cols[desc] = xansi.StringWidth(line[:i])
			}
		}
	}
	if len(cols) != 3 {
		t.Fatalf("menu rows found: %v", cols)
	}
	if cols["Summarise the conversation"] != cols["View settings"] || cols["View settings"] != cols["Show the session's cost"] {
		t.Fatalf("descriptions start at columns %v", cols)
	}
}

// In a multi-select question, an answer typed under "Type something
// else" is added to the options ticked; it used to replace them.
func TestQA3MultiSelectKeepsTickedOptionsWithATypedAnswer(t *testing.T) {
	input := map[string]any{"questions": []map[string]any{
		{"question": "Which parts?", "header": "Scope", "multiSelect": true,
			"options": []map[string]any{{"label": "API", "description": ""}, {"label": "UI", "description": ""}, {"label": "Docs", "description": ""}}},
	}}
	turns := []llmtest.Turn{llmtest.Calls(llmtest.ToolUse("q1", "AskUserQuestion", input)), llmtest.Reply("noted")}
	h := newHarness(t, turns, harnessOpts{tools: []tool.Tool{askuser.New()}})
	h.typeText("plan it")
	h.key("enter")
	h.waitFor("Which parts?")
	h.key("space") // API
	h.key("down")
	h.key("down")
	h.key("space") // Docs
	h.key("4")     // type something else
	h.typeText("Chat")
	h.key("enter")
	h.waitFor("noted")
	if text := h.requests(2)[1].ToolResults()[0].ResultText(); !strings.Contains(text, "Which parts? → API, Docs, Chat") {
		t.Fatalf("result = %q", text)
	}
}

// Token counts of a million and more read in millions ("/context" of a
// 1M-token model said "of 1000.0k tokens").
func TestQA3TokenCountsInMillions(t *testing.T) {
	for n, want := range map[int]string{999: "999", 7045: "7.0k", 999_949: "999.9k", 1_000_000: "1.0M", 1_250_000: "1.2M"} {
		if got := kTokens(n); got != want {
			t.Errorf("kTokens(%d) = %q, want %q", n, got, want)
		}
	}
}
