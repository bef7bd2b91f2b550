package sdk_test

import (
	"testing"

	"reins/internal/e2etest"
)

// outputFormat json_schema: the StructuredOutput call ends the turn, as in
// Claude Code, so the model is not asked again, and the result's text is
// the output as JSON. reins sent one more request and the result text was
// whatever the model said after the call.
func TestQA11OutputFormatStructuredOutputEndsTheTurn(t *testing.T) {
	srv := server(t, call("toolu_1", "StructuredOutput", `{"n": 3}`, 100, 5), reply("Anything else?", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, _ := runScript(t, sb, "qa11.mjs", "schema")
	res := ofType(msgs, "result", "")
	if len(res) != 1 {
		t.Fatalf("results %s", js(res))
	}
	r := res[0]
	if r["subtype"] != "success" || js(r["structured_output"]) != `{"n":3}` || r["result"] != `{"n":3}` || r["stop_reason"] != "tool_use" {
		t.Errorf("result %s, want success with the output as structured_output and as its text", js(r))
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1: the call ends the turn", n)
	}
}
