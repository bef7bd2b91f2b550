package cli

import (
	"encoding/json"
	"testing"
)

// --task-budget joins an output_config CLAUDE_CODE_EXTRA_BODY gives (its
// own task_budget wins), leaves one that is not an object alone, and
// adds its beta once.
func TestQA10TaskBudgetMergesIntoTheExtraOutputConfig(t *testing.T) {
	cases := []struct{ extra, want string }{
		{``, `{"task_budget":{"type":"tokens","total":9000}}`},
		{`{"effort":"low"}`, `{"effort":"low","task_budget":{"type":"tokens","total":9000}}`},
		{`{"task_budget":{"type":"tokens","total":5}}`, `{"task_budget":{"type":"tokens","total":5}}`},
		{`"odd"`, `"odd"`},
	}
	for _, tc := range cases {
		var extra map[string]json.RawMessage
		if tc.extra != "" {
			extra = map[string]json.RawMessage{"output_config": json.RawMessage(tc.extra)}
		}
		out, betas := withTaskBudget(extra, []string{"x", taskBudgetBeta}, 9000)
		if got := string(out["output_config"]); got != tc.want {
			t.Errorf("extra %s: output_config %s, want %s", tc.extra, got, tc.want)
		}
		if tc.extra != `"odd"` && len(betas) != 2 {
			t.Errorf("extra %s: betas %q, want the beta once", tc.extra, betas)
		}
	}
}
