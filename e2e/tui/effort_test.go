package tui

import (
	"encoding/json"
	"testing"

	"reins/internal/llm/llmtest"
)

func requestEffort(t *testing.T, r *llmtest.Request) string {
	t.Helper()
	var b struct {
		OutputConfig struct {
			Effort string `json:"effort"`
		} `json:"output_config"`
	}
	if err := json.Unmarshal(r.Body, &b); err != nil {
		t.Fatal(err)
	}
	return b.OutputConfig.Effort
}

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
	tt.waitFor("Effort set to low.")
	tt.prompt("again")
	tt.waitFor("second answer")
	tt.prompt("/clear")
	tt.waitFor("Conversation cleared")
	tt.prompt("next")
	tt.waitFor("after clear")
	rs := tt.requests(3)
	for i, want := range []string{"medium", "low", "low"} {
		if got := requestEffort(t, rs[i]); got != want {
			t.Errorf("request %d: effort %q, want %q", i+1, got, want)
		}
	}
}
