package sdk

import (
	"fmt"
	"testing"
)

func TestInitializeListsEachModelsEffortLevels(t *testing.T) {
	h := newHarness(t, Config{})
	h.send(`{"type":"control_request","request_id":"init","request":{"subtype":"initialize"}}`)
	resp := h.until("control_response", "")
	r := resp["response"].(map[string]any)["response"].(map[string]any)
	got := map[string]string{}
	for _, m := range r["models"].([]any) {
		m := m.(map[string]any)
		got[m["value"].(string)] = fmt.Sprint(m["supportsEffort"], " ", m["supportedEffortLevels"])
	}
	want := map[string]string{
		"opus":   "true [low medium high xhigh max]",
		"sonnet": "false <nil>",
		"haiku":  "false <nil>",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s, want %s", k, got[k], v)
		}
	}
}
