package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// BASH_DEFAULT_TIMEOUT_MS and BASH_MAX_TIMEOUT_MS from the settings' env
// set the Bash tool's timeouts, as in Claude Code: a call without a
// timeout stops at the default, a timeout up to the raised largest is
// accepted, and the tool's description gives both.
func TestQA5BashTimeoutsFollowTheEnvironmentVariables(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_def", "Bash", map[string]any{"command": "echo begun; sleep 30; echo ended"})),
		llmtest.Calls(llmtest.ToolUse("toolu_max", "Bash", map[string]any{"command": "echo allowed", "timeout": 1_100_000})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"env":{"BASH_DEFAULT_TIMEOUT_MS":"700","BASH_MAX_TIMEOUT_MS":"1200000"}}`)
	r := sb.Run(t, "", "-p", "check", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	res := reqs[1].ToolResults()
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].ResultText(), "timed out after 700ms") ||
		!strings.Contains(res[0].ResultText(), "begun") || strings.Contains(res[0].ResultText(), "ended") {
		t.Fatalf("the call without a timeout answered %+v, want it stopped at 700ms with its output so far", res)
	}
	res = reqs[2].ToolResults()
	if len(res) != 1 || res[0].IsError || strings.TrimSpace(res[0].ResultText()) != "allowed" {
		t.Fatalf("the call with timeout 1100000 answered %+v, want it run (the largest is 1200000)", res)
	}
	var desc string
	for _, tl := range reqs[0].Tools {
		var v struct{ Name, Description string }
		json.Unmarshal(tl, &v)
		if v.Name == "Bash" {
			desc = v.Description
		}
	}
	if !strings.Contains(desc, "700 by default, at most 1200000 (20 minutes)") {
		t.Fatalf("the Bash description does not give the timeouts set:\n%s", desc)
	}
}

// A BASH_DEFAULT_TIMEOUT_MS that is no number of milliseconds is ignored
// with a warning that names it; the default stays 2 minutes.
func TestQA5BashTimeoutVariableThatIsNoNumberIsReported(t *testing.T) {
	srv := server(t, llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"env":{"BASH_DEFAULT_TIMEOUT_MS":"2m"}}`)
	r := sb.Run(t, "", "-p", "check", "--verbose", "--output-format", "stream-json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr+r.Stdout, `BASH_DEFAULT_TIMEOUT_MS=\"2m\" is not a positive number of milliseconds`) &&
		!strings.Contains(r.Stderr+r.Stdout, `BASH_DEFAULT_TIMEOUT_MS="2m" is not a positive number of milliseconds`) {
		t.Fatalf("no warning about the bad value; stderr:\n%s\nstdout:\n%s", r.Stderr, r.Stdout)
	}
	var desc string
	for _, tl := range srv.Requests()[0].Tools {
		var v struct{ Name, Description string }
		json.Unmarshal(tl, &v)
		if v.Name == "Bash" {
			desc = v.Description
		}
	}
	if !strings.Contains(desc, "120000 (2 minutes) by default, at most 600000 (10 minutes)") {
		t.Fatalf("the Bash description does not give the standard timeouts:\n%s", desc)
	}
}

// BASH_MAX_OUTPUT_LENGTH sets the longest Bash result the model gets
// whole, as in Claude Code: under a smaller value a result past it is
// saved to a file and previewed, and the description says so.
func TestQA5BashMaxOutputLengthFollowsTheEnvironmentVariable(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_out", "Bash", map[string]any{"command": "seq 1 2000"})),
		llmtest.Reply("done"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"env":{"BASH_MAX_OUTPUT_LENGTH":"5000"}}`)
	r := sb.Run(t, "", "-p", "check", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	res := reqs[1].ToolResults()
	if len(res) != 1 || !strings.Contains(res[0].ResultText(), "<persisted-output>") {
		t.Fatalf("a 8893-character result under BASH_MAX_OUTPUT_LENGTH=5000 answered %+v, want it saved to a file", res)
	}
	var desc string
	for _, tl := range reqs[0].Tools {
		var v struct{ Name, Description string }
		json.Unmarshal(tl, &v)
		if v.Name == "Bash" {
			desc = v.Description
		}
	}
	if !strings.Contains(desc, "Output longer than 5000 characters is saved to a file") {
		t.Fatalf("the Bash description does not give the limit set:\n%s", desc)
	}
}
