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

func TestApplyFlagSettingsTakesEffortLevelOnly(t *testing.T) {
	var got []string
	h := newHarness(t, Config{SetEffort: func(l string) error { got = append(got, l); return nil }, ThinkingDisplay: "summarized"})
	for _, tc := range []struct{ req, subtype, errText string }{
		{`{"subtype":"apply_flag_settings","settings":{"effortLevel":"max"}}`, "success", ""},
		{`{"subtype":"apply_flag_settings","settings":{"effortLevel":null}}`, "success", ""},
		{`{"subtype":"apply_flag_settings","settings":{"effortLevel":3}}`, "error", "effortLevel must be a string or null"},
		{`{"subtype":"apply_flag_settings","settings":{"fastMode":true,"effortLevel":"low"}}`, "error", "reins applies only effortLevel, not fastMode"},
		{`{"subtype":"set_max_thinking_tokens","thinking_display":"highlights"}`, "error", `"thinking_display" must be "summarized", "omitted" or null`},
		{`{"subtype":"set_max_thinking_tokens","thinking_display":"omitted"}`, "success", ""},
	} {
		h.send(`{"type":"control_request","request_id":"x","request":` + tc.req + `}`)
		r := h.until("control_response", "")["response"].(map[string]any)
		if r["subtype"] != tc.subtype || (tc.errText != "" && !strings.Contains(fmt.Sprint(r["error"]), tc.errText)) {
			t.Errorf("%s: %v", tc.req, r)
		}
	}
	if strings.Join(got, ",") != "max,,low" {
		t.Errorf("levels set: %q", got)
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
