package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
)

// A tool call whose streamed input is not valid JSON (a cut or garbled
// stream) stays in the conversation and is answered with an error the
// model can act on; it must not vanish while its siblings run.
func TestQAToolCallWithInvalidJSONInputIsAnsweredWithAnError(t *testing.T) {
	bad := `{"file_path": "/tm`
	srv := server(t,
		llmtest.Calls(
			llmtest.Block{Type: "tool_use", ID: "toolu_garbled", Name: "Read", RawInputJSON: &bad},
			llmtest.ToolUse("toolu_fine", "Bash", map[string]any{"command": "echo fine"})),
		llmtest.Reply("seen"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "go", "--allowedTools", "Bash", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("requests %d", len(reqs))
	}
	msgs := reqs[1].Messages
	var calls []string
	for _, u := range msgs[len(msgs)-2].ToolUses() {
		calls = append(calls, u.ID)
		if u.ID == "toolu_garbled" && !json.Valid(u.Input) {
			t.Errorf("the garbled call goes back to the API with input %q", u.Input)
		}
	}
	if got := strings.Join(calls, ","); got != "toolu_garbled,toolu_fine" {
		t.Errorf("assistant tool calls sent back: %s", got)
	}
	results := map[string]llm.ContentBlock{}
	for _, b := range reqs[1].ToolResults() {
		results[b.ToolUseID] = b
	}
	if g, ok := results["toolu_garbled"]; !ok || !g.IsError || !strings.Contains(g.ResultText(), "JSON") {
		t.Errorf("garbled call result = %+v (present %v)", g, ok)
	}
	if f := results["toolu_fine"]; f.IsError || !strings.Contains(f.ResultText(), "fine") {
		t.Errorf("sibling result = %q", f.ResultText())
	}
	// The SDK stream shows the call and its error result.
	var sawCall, sawResult bool
	for _, l := range decodeLines(t, r.Stdout) {
		b, _ := json.Marshal(l)
		switch {
		case l["type"] == "assistant" && strings.Contains(string(b), "toolu_garbled"):
			sawCall = true
		case l["type"] == "user" && strings.Contains(string(b), "toolu_garbled"):
			sawResult = true
		}
	}
	if !sawCall || !sawResult {
		t.Errorf("stream-json: call shown %v, result shown %v\n%s", sawCall, sawResult, r.Stdout)
	}
}

// An error result's tool_use_result (what SDK programs read) is the
// result text after one "Error: ", as Claude Code writes it, also when the
// text itself starts with "Error:" (a call to a tool that does not exist).
func TestQAErrorToolUseResultHasOneErrorPrefix(t *testing.T) {
	srv := server(t,
		llmtest.Calls(
			llmtest.ToolUse("toolu_ghost", "Frobnicate", map[string]any{"x": 1}),
			llmtest.ToolUse("toolu_denied", "Bash", map[string]any{"command": "rm -rf build"})),
		llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "go", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	seen := 0
	for _, l := range decodeLines(t, r.Stdout) {
		if l["type"] != "user" {
			continue
		}
		block := l["message"].(map[string]any)["content"].([]any)[0].(map[string]any)
		text, _ := block["content"].(string)
		got, _ := l["tool_use_result"].(string)
		if !strings.HasPrefix(got, "Error: ") || strings.HasPrefix(got, "Error: Error") ||
			strings.TrimPrefix(text, "Error: ") != strings.TrimPrefix(got, "Error: ") {
			t.Errorf("%v: tool_use_result %q for result text %q", block["tool_use_id"], got, text)
		}
		seen++
	}
	if seen != 2 {
		t.Errorf("saw %d tool results:\n%s", seen, r.Stdout)
	}
}

// Models sometimes write integer fields as 1.0. JSON Schema counts that
// as an integer, so the call must work like offset 2, limit 1.
func TestQAWholeNumberWrittenAsFloatWorks(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	p, _ := json.Marshal(sb.Write(t, "lines.txt", "first\nsecond\nthird\n"))
	input := `{"file_path":` + string(p) + `,"offset":2.0,"limit":1.0}`
	srv.Add(llmtest.Calls(llmtest.Block{Type: "tool_use", ID: "toolu_r", Name: "Read", RawInputJSON: &input}),
		llmtest.Reply("ok"))
	r := sb.Run(t, "", "-p", "go")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	res := srv.Requests()[1].ToolResults()
	if len(res) != 1 || res[0].IsError || !strings.Contains(res[0].ResultText(), "second") ||
		strings.Contains(res[0].ResultText(), "first") || strings.Contains(res[0].ResultText(), "third") {
		t.Errorf("Read with offset 2.0, limit 1.0 = %+v", res)
	}
}
