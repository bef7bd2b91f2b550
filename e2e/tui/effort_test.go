package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"reins/internal/llm/llmtest"
)

// /effort shows the level, /effort LEVEL changes it from the next request,
// and the choice stays after /clear, as the model chosen with /model does.
func TestEffortCommandShowsSetsAndSurvivesClear(t *testing.T) {
	tt := newTerm(t, llmtest.Reply("first answer"), llmtest.Reply("second answer"), llmtest.Reply("after clear"))
	tt.start()
	tt.ready()
	tt.prompt("hello")
	tt.waitFor("first answer")
	tt.prompt("/effort")
	tt.waitFor("Effort: medium, the model's default.")
	tt.prompt("/effort low")
	tt.waitFor("Effort set to low.", "claude-opus-5-5 · low effort")
	tt.prompt("again")
	tt.waitFor("second answer")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("next")
	tt.waitFor("after clear")
	rs := tt.requests(3)
	for i, want := range []string{"medium", "low", "low"} {
		if got := effortOf(rs[i]); got != want {
			t.Errorf("request %d: effort %q, want %q", i+1, got, want)
		}
	}
}

// A statusLine command reads the effort the next request carries, as
// Claude Code gives it ({"effort": {"level": ...}}).
func TestStatusLineCommandGetsTheEffort(t *testing.T) {
	tt := newTerm(t)
	dump := filepath.Join(t.TempDir(), "status.json")
	tt.sb.Write(t, ".claude/settings.json", `{"effortLevel":"high","statusLine":{"type":"command","command":"cat > `+dump+`; echo MY-STATUS"}}`)
	tt.start()
	tt.ready()
	tt.waitFor("MY-STATUS")
	tt.prompt("/effort max")
	tt.waitFor("Effort set to max.")
	var in struct {
		Effort struct {
			Level string `json:"level"`
		} `json:"effort"`
	}
	tt.waitUntil("the status line input to carry effort max", func(string) bool {
		data, err := os.ReadFile(dump)
		return err == nil && json.Unmarshal(data, &in) == nil && in.Effort.Level == "max"
	})
}

// /agents shows an agent's effort and isolation.
func TestAgentsListShowsEffortAndIsolation(t *testing.T) {
	tt := newTerm(t)
	tt.sb.Write(t, ".claude/agents/careful.md", "---\nname: careful\ndescription: Works carefully.\neffort: xhigh\nisolation: worktree\n---\nBe careful.\n")
	tt.start()
	tt.ready()
	tt.prompt("/agents")
	tt.waitFor("careful", "effort: xhigh · isolation: worktree")
}

// effortOf is the effort level r carries.
func effortOf(r *llmtest.Request) string {
	level, _ := r.Effort()
	return level
}
