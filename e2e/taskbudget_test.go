package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// --task-budget (the Agent SDK's taskBudget option) tells the model its
// token budget: every request carries output_config.task_budget and the
// task budgets beta, beside the effort level.
func TestTaskBudgetIsSentWithEveryRequest(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Read", map[string]string{"file_path": "notes.txt"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.txt", "hello\n")
	if r := sb.Run(t, "", "-p", "read it", "--task-budget", "64000", "--effort", "high"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, req := range reqs {
		var body struct {
			OutputConfig struct {
				Effort     string `json:"effort"`
				TaskBudget struct {
					Type  string `json:"type"`
					Total int    `json:"total"`
				} `json:"task_budget"`
			} `json:"output_config"`
		}
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatal(err)
		}
		tb := body.OutputConfig.TaskBudget
		if tb.Type != "tokens" || tb.Total != 64000 || body.OutputConfig.Effort != "high" {
			t.Errorf("request %d output_config %+v, want effort high and a 64000-token budget", i, body.OutputConfig)
		}
		if beta := strings.Join(req.Header.Values("anthropic-beta"), ","); !strings.Contains(beta, "task-budgets-2026-03-13") {
			t.Errorf("request %d anthropic-beta %q lacks the task budgets beta", i, beta)
		}
	}
}
