package sdk

import (
	"fmt"
	"strings"
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

// apply_flag_settings' effortLevel is tested with the whole settings
// overlay, in package cli and e2e/sdk.

func TestSetMaxThinkingTokensChangesThinkingDisplay(t *testing.T) {
	h := newHarness(t, Config{ThinkingDisplay: "summarized"})
	for _, tc := range []struct{ req, subtype, errText string }{
		{`{"subtype":"set_max_thinking_tokens","thinking_display":"highlights"}`, "error", `"thinking_display" must be "summarized", "omitted" or null`},
		{`{"subtype":"set_max_thinking_tokens","thinking_display":"omitted"}`, "success", ""},
	} {
		h.send(`{"type":"control_request","request_id":"x","request":` + tc.req + `}`)
		r := h.until("control_response", "")["response"].(map[string]any)
		if r["subtype"] != tc.subtype || (tc.errText != "" && !strings.Contains(fmt.Sprint(r["error"]), tc.errText)) {
			t.Errorf("%s: %v", tc.req, r)
		}
	}
	if d := h.sess.Config().ThinkingDisplay; d != "omitted" {
		t.Errorf("thinking display %q", d)
	}
	h.send(`{"type":"control_request","request_id":"y","request":{"subtype":"set_max_thinking_tokens","thinking_display":null}}`)
	h.until("control_response", "")
	if d := h.sess.Config().ThinkingDisplay; d != "summarized" {
		t.Errorf("after null: thinking display %q, want the starting summarized", d)
	}
}
