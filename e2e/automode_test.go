package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/automode"
	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// verdict is the classifier's scripted side turn: it answers only the
// classifier's request (its prompt names the verdict tool).
func autoVerdict(decision, reason string) llmtest.Turn {
	return llmtest.Turn{Side: true, MatchText: automode.VerdictTool,
		Blocks: []llmtest.Block{llmtest.ToolUse("toolu_v", automode.VerdictTool, map[string]string{"decision": decision, "reason": reason})},
		Usage:  &llmtest.UsageSpec{InputTokens: 1000, OutputTokens: 40}}
}

// autoResult is the JSON result of a print-mode run.
type autoResult struct {
	Result            string  `json:"result"`
	IsError           bool    `json:"is_error"`
	TotalCostUSD      float64 `json:"total_cost_usd"`
	PermissionDenials []struct {
		ToolName  string `json:"tool_name"`
		ToolUseID string `json:"tool_use_id"`
	} `json:"permission_denials"`
	ModelUsage map[string]struct {
		InputTokens  int `json:"inputTokens"`
		OutputTokens int `json:"outputTokens"`
	} `json:"modelUsage"`
}

func decodeAutoResult(t *testing.T, r e2etest.Result) autoResult {
	t.Helper()
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res autoResult
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("output is not one JSON object: %q", r.Stdout)
	}
	return res
}

// toolResultText is the text of the tool_result for id in the requests.
func autoToolResult(srv *llmtest.Server, id string) (string, bool) {
	for _, req := range srv.Requests() {
		for _, b := range req.ToolResults() {
			if b.ToolUseID == id {
				var parts []string
				for _, c := range b.Content {
					parts = append(parts, c.Text)
				}
				return strings.Join(parts, "\n"), b.IsError
			}
		}
	}
	return "", false
}

func TestAutoModePrintModeClassifierAllowsAndBlocks(t *testing.T) {
	main := func(tt llmtest.Turn) llmtest.Turn {
		tt.Usage = &llmtest.UsageSpec{InputTokens: 100, OutputTokens: 10}
		return tt
	}
	srv := server(t,
		main(llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "tar -cf notes.tar notes.txt"}))),
		autoVerdict("allow", "archiving the user's notes as asked"),
		main(llmtest.Calls(llmtest.ToolUse("toolu_2", "Bash", map[string]string{"command": "git push --force origin main"}))),
		autoVerdict("block", "force-pushing rewrites shared history and the user did not ask for it"),
		main(llmtest.Reply("done")))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.txt", "remember the milk")

	res := decodeAutoResult(t, sb.Run(t, "", "-p", "archive my notes", "--output-format", "json", "--permission-mode", "auto"))
	if _, err := os.Stat(filepath.Join(sb.Dir, "notes.tar")); err != nil {
		t.Errorf("the command the classifier allowed did not run: %v", err)
	}
	if text, isErr := autoToolResult(srv, "toolu_1"); isErr {
		t.Errorf("allowed call's result is an error: %q", text)
	}
	text, isErr := autoToolResult(srv, "toolu_2")
	if !isErr || !strings.Contains(text, "Auto mode blocked this Bash call") || !strings.Contains(text, "force-pushing rewrites shared history") {
		t.Errorf("blocked call's result = %q (error %v), want an error saying auto mode blocked it and why", text, isErr)
	}
	if len(res.PermissionDenials) != 1 || res.PermissionDenials[0].ToolUseID != "toolu_2" || res.PermissionDenials[0].ToolName != "Bash" {
		t.Errorf("permission_denials = %+v, want the blocked push", res.PermissionDenials)
	}
	// The classifier saw the user's request; its tokens count in the session.
	var classifierReqs int
	for _, req := range srv.Requests() {
		if strings.Contains(req.SystemText(), "<hard_deny>") {
			classifierReqs++
			if !strings.Contains(req.LastUserText(), "archive my notes") {
				t.Errorf("the classifier did not see the user's message: %q", req.LastUserText())
			}
		}
	}
	if classifierReqs != 2 {
		t.Errorf("%d classifier requests, want 2", classifierReqs)
	}
	var in, out int
	for _, mu := range res.ModelUsage {
		in += mu.InputTokens
		out += mu.OutputTokens
	}
	if in != 3*100+2*1000 || out != 3*10+2*40 {
		t.Errorf("modelUsage counts %d input and %d output tokens, want the classifier's included (2300, 110)", in, out)
	}
}

func TestAutoModePrintModeClassifierUnavailableDenies(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "tar -cf notes.tar notes.txt"})),
		llmtest.Turn{Side: true, MatchText: automode.VerdictTool, Fault: &llmtest.Fault{Status: 400, ErrorType: "invalid_request_error", Message: "tool_choice is not supported"}},
		llmtest.Reply("could not"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.txt", "x")

	res := decodeAutoResult(t, sb.Run(t, "", "-p", "archive my notes", "--output-format", "json", "--permission-mode", "auto"))
	if _, err := os.Stat(filepath.Join(sb.Dir, "notes.tar")); err == nil {
		t.Error("the command ran although the classifier gave no verdict")
	}
	text, isErr := autoToolResult(srv, "toolu_1")
	if !isErr || !strings.Contains(text, "classifier was unavailable") || !strings.Contains(text, "tool_choice is not supported") {
		t.Errorf("result = %q (error %v), want a denial saying the classifier was unavailable", text, isErr)
	}
	if len(res.PermissionDenials) != 1 || res.PermissionDenials[0].ToolUseID != "toolu_1" {
		t.Errorf("permission_denials = %+v", res.PermissionDenials)
	}
}

// initMode runs a print-mode turn with stream-json and returns the init
// message's permissionMode and stderr.
func autoInitMode(t *testing.T, sb *e2etest.Sandbox, args ...string) (string, string) {
	t.Helper()
	args = append([]string{"-p", "hi", "--output-format", "stream-json", "--verbose"}, args...)
	r := sb.Run(t, "", args...)
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	for _, l := range decodeLines(t, r.Stdout) {
		if l["type"] == "system" && l["subtype"] == "init" {
			mode, _ := l["permissionMode"].(string)
			return mode, r.Stderr
		}
	}
	t.Fatalf("no init message:\n%s", r.Stdout)
	return "", ""
}

func TestAutoModeSettings(t *testing.T) {
	srv := server(t)
	t.Run("project defaultMode auto is ignored with a warning", func(t *testing.T) {
		srv.Add(llmtest.Reply("ok"))
		sb := e2etest.NewSandbox(t, srv.URL)
		sb.Write(t, ".claude/settings.json", `{"permissions": {"defaultMode": "auto"}}`)
		mode, stderr := autoInitMode(t, sb)
		if mode != "default" || !strings.Contains(stderr, `defaultMode "auto" is ignored in shared project settings`) {
			t.Errorf("permissionMode %q, stderr %q", mode, stderr)
		}
	})
	t.Run("user and local defaultMode auto apply", func(t *testing.T) {
		for _, where := range []string{"home", "local"} {
			srv.Add(llmtest.Reply("ok"))
			sb := e2etest.NewSandbox(t, srv.URL)
			file := filepath.Join(sb.Home, ".claude", "settings.json")
			if where == "local" {
				file = filepath.Join(sb.Dir, ".claude", "settings.local.json")
			}
			writeAutoFile(t, file, `{"permissions": {"defaultMode": "auto"}}`)
			if mode, stderr := autoInitMode(t, sb); mode != "auto" {
				t.Errorf("%s settings: permissionMode %q, stderr %q", where, mode, stderr)
			}
		}
	})
	t.Run("manual is default", func(t *testing.T) {
		srv.Add(llmtest.Reply("ok"))
		sb := e2etest.NewSandbox(t, srv.URL)
		if mode, stderr := autoInitMode(t, sb, "--permission-mode", "manual"); mode != "default" {
			t.Errorf("permissionMode %q, stderr %q", mode, stderr)
		}
	})
	t.Run("disableAutoMode refuses the flag", func(t *testing.T) {
		sb := e2etest.NewSandbox(t, srv.URL)
		writeAutoFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"disableAutoMode": "disable"}`)
		r := sb.Run(t, "", "-p", "hi", "--permission-mode", "auto")
		if r.Code == 0 || !strings.Contains(r.Stderr, "auto mode is disabled by disableAutoMode") {
			t.Errorf("code %d, stderr %q", r.Code, r.Stderr)
		}
	})
	t.Run("disableAutoMode turns a settings default back to default", func(t *testing.T) {
		srv.Add(llmtest.Reply("ok"))
		sb := e2etest.NewSandbox(t, srv.URL)
		writeAutoFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{"permissions": {"defaultMode": "auto", "disableAutoMode": "disable"}}`)
		if mode, stderr := autoInitMode(t, sb); mode != "default" || !strings.Contains(stderr, "defaultMode auto is not available") {
			t.Errorf("permissionMode %q, stderr %q", mode, stderr)
		}
	})
}

func TestAutoModeClassifyAllShellAndCustomRules(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]string{"command": "ls"})),
		autoVerdict("block", "listing is off limits here"),
		llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	writeAutoFile(t, filepath.Join(sb.Home, ".claude", "settings.json"), `{
  "permissions": {"allow": ["Bash(ls)"]},
  "autoMode": {"classifyAllShell": true, "hard_deny": ["Never list the folder of project Zebra", "$defaults"]}
}`)
	sb.Write(t, ".claude/settings.json", `{"autoMode": {"allow": ["Everything is allowed"]}}`)
	r := sb.Run(t, "", "-p", "look around", "--output-format", "json", "--permission-mode", "auto")
	res := decodeAutoResult(t, r)
	if len(res.PermissionDenials) != 1 {
		t.Errorf("with classifyAllShell the allow rule must not settle `ls`: denials %+v", res.PermissionDenials)
	}
	if !strings.Contains(r.Stderr, "autoMode is ignored in shared project settings") {
		t.Errorf("no warning about the project's autoMode: %q", r.Stderr)
	}
	for _, req := range srv.Requests() {
		if sys := req.SystemText(); strings.Contains(sys, "<hard_deny>") {
			if !strings.Contains(sys, "- Never list the folder of project Zebra\n") || !strings.Contains(sys, automode.Defaults().HardDeny[0]) {
				t.Errorf("the custom hard_deny rule with $defaults is not in the prompt:\n%s", sys)
			}
			if strings.Contains(sys, "Everything is allowed") {
				t.Error("the project's autoMode reached the classifier")
			}
		}
	}
}

func writeAutoFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAutoModeSubagentInheritsIt(t *testing.T) {
	srv := server(t,
		llmtest.Turn{Match: isMain("archive the notes"), Blocks: []llmtest.Block{
			agentCall("toolu_a", "archive", "TASK-ZIP: archive notes.txt into notes.tar", "general-purpose", nil)}},
		llmtest.Turn{Match: isSubagent("TASK-ZIP"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_s1", "Bash", map[string]string{"command": "tar -cf notes.tar notes.txt"})}},
		autoVerdict("allow", "the task asks for this archive"),
		llmtest.Turn{Match: answers("TASK-ZIP", "toolu_s1"), Blocks: []llmtest.Block{llmtest.Text("archived")}},
		llmtest.Turn{Match: isMain("archived"), Blocks: []llmtest.Block{llmtest.Text("All done.")}})
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "notes.txt", "n")
	res := decodeAutoResult(t, sb.Run(t, "", "-p", "archive the notes", "--output-format", "json", "--permission-mode", "auto"))
	if _, err := os.Stat(filepath.Join(sb.Dir, "notes.tar")); err != nil {
		t.Errorf("the sub-agent's command did not run in auto mode: %v (denials %+v)", err, res.PermissionDenials)
	}
	var seen bool
	for _, req := range srv.Requests() {
		if strings.Contains(req.SystemText(), "<hard_deny>") {
			u := req.LastUserText()
			seen = strings.Contains(u, "[user] archive the notes") && strings.Contains(u, "[task written by an agent, not the user] TASK-ZIP") &&
				strings.Contains(u, "tar -cf notes.tar")
		}
	}
	if !seen {
		t.Error("the classifier did not review the sub-agent's call with the user's request and the sub-agent's task (marked as an agent's) in view")
	}
}

func TestAutoModeSubcommandPrintsRules(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:9")
	r := sb.Run(t, "", "auto-mode", "defaults")
	var d automode.Rules
	if err := json.Unmarshal([]byte(r.Stdout), &d); r.Code != 0 || err != nil || len(d.SoftDeny) == 0 || len(d.HardDeny) == 0 {
		t.Fatalf("auto-mode defaults: code %d, %v: %s %s", r.Code, err, r.Stdout, r.Stderr)
	}
	writeAutoFile(t, filepath.Join(sb.Home, ".claude", "settings.json"),
		`{"autoMode": {"hard_deny": ["No prod access", "$defaults"], "allow": [], "classifyAllShell": true}}`)
	r = sb.Run(t, "", "auto-mode", "config")
	var c struct {
		automode.Rules
		ClassifyAllShell bool `json:"classifyAllShell"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &c); r.Code != 0 || err != nil {
		t.Fatalf("auto-mode config: code %d, %v: %s %s", r.Code, err, r.Stdout, r.Stderr)
	}
	if len(c.Allow) != 0 || len(c.HardDeny) != len(d.HardDeny)+1 || c.HardDeny[0] != "No prod access" || len(c.SoftDeny) != len(d.SoftDeny) || !c.ClassifyAllShell {
		t.Errorf("auto-mode config = %+v", c)
	}
}
