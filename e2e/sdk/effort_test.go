package sdk_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// The TypeScript SDK's effort and thinking options reach the requests,
// and its applyFlagSettings and setMaxThinkingTokens change them from the
// next turn on.
func TestTypeScriptAgentSDKSetsEffortAndThinkingDisplay(t *testing.T) {
	srv, err := llmtest.Start(llmtest.Reply("one done"), llmtest.Reply("two done"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runAgent(t, sb, "effort")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range []struct{ effort, thinking string }{
		{"low", `{"type":"adaptive","display":"omitted"}`},
		{"max", `{"type":"adaptive","display":"summarized"}`},
	} {
		var b struct {
			OutputConfig struct {
				Effort string `json:"effort"`
			} `json:"output_config"`
		}
		json.Unmarshal(reqs[i].Body, &b)
		if b.OutputConfig.Effort != want.effort || string(reqs[i].Thinking) != want.thinking {
			t.Errorf("request %d: effort %q thinking %s, want %q %s", i+1, b.OutputConfig.Effort, reqs[i].Thinking, want.effort, want.thinking)
		}
	}
	models := fmt.Sprint(summary["models"])
	if want := "map[levels:[low medium high xhigh max] supportsEffort:true value:opus]"; !strings.Contains(models, want) {
		t.Errorf("supportedModels %s lacks %s", models, want)
	}
}
