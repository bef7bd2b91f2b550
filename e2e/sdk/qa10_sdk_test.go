package sdk_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// systemTexts is the text of each system block of a request.
func systemTexts(t *testing.T, raw []json.RawMessage) []string {
	t.Helper()
	var out []string
	for _, b := range raw {
		var v struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("system block %s: %v", b, err)
		}
		out = append(out, v.Text)
	}
	return out
}

// The SDK's SYSTEM_PROMPT_DYNAMIC_BOUNDARY in a string-list systemPrompt
// parts the shared text from the session's: the model gets the two parts
// as blocks of their own and never the marker (it was sent as prompt
// text).
func TestQA10SystemPromptBoundaryMarkerPartsThePromptAndIsNotSent(t *testing.T) {
	srv := server(t, reply("Hello.", 100, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	runScript(t, sb, "qa10.mjs", "boundary")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	got := systemTexts(t, reqs[0].System)
	if strings.Join(got, "|") != "SHARED-PART.|SESSION-PART." {
		t.Errorf("system blocks %q, want the shared part then the session's, without the marker", got)
	}
}

// The title option names the session as it starts, as /rename would (the
// SDK's getSessionInfo reads it back); resuming it with another title
// keeps the name it has. reins ignored the title.
func TestQA10TitleOptionNamesTheSession(t *testing.T) {
	srv := server(t, reply("Hello.", 100, 5), reply("Again.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "qa10.mjs", "title", "REINS_CONFIG_DIR="+filepath.Join(sb.Home, ".claude"))
	if got := summary["titled"]; got != "Release checklist" {
		t.Errorf("customTitle after the first query = %v, want the title option", got)
	}
	if got := summary["resumedTitle"]; got != "Release checklist" {
		t.Errorf("customTitle after resuming with another title = %v, want the name it had", got)
	}
}

// The managedSettings option (--managed-settings) is the host's policy:
// its deny rule refuses the call allowedTools would let through, and the
// allow rule it carries, which would widen the policy, is dropped with a
// warning on stderr. reins ignored the option ("unknown option"), so the
// host's policy was not enforced.
func TestQA10ManagedSettingsOptionEnforcesTheHostsDenyRules(t *testing.T) {
	srv := server(t,
		call("toolu_1", "Bash", `{"command":"touch made-by-model"}`, 100, 5),
		reply("Done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runScript(t, sb, "qa10.mjs", "managed")
	res := ofType(msgs, "result", "")
	if len(res) != 1 || js(res[0]["permission_denials"]) != `[{"tool_input":{"command":"touch made-by-model"},"tool_name":"Bash","tool_use_id":"toolu_1"}]` {
		t.Errorf("results %s, want the touch call denied", js(res))
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made-by-model")); err == nil {
		t.Error("the denied command ran")
	}
	if got, _ := summary["stderr"].(string); !strings.Contains(got, "may only restrict; ignored: permissions.allow") {
		t.Errorf("stderr %q, want the dropped allow rule named", got)
	}
}

// permissionPrompts: 'none' (--permission-prompts none) leaves nobody to
// ask: a call that needs approval is denied at once, the model is told
// nobody can approve it, and canUseTool is never called. reins ignored
// the option ("unknown option") and asked canUseTool, which allowed it.
func TestQA10PermissionPromptsNoneDeniesWithoutAsking(t *testing.T) {
	srv := server(t,
		call("toolu_1", "Bash", `{"command":"touch asked-for"}`, 100, 5),
		reply("Could not.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, summary := runScript(t, sb, "qa10.mjs", "noPrompts")
	if got := js(summary["asked"]); got != "[]" {
		t.Errorf("canUseTool was asked about %s", got)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "asked-for")); err == nil {
		t.Error("the command ran")
	}
	res := ofType(msgs, "result", "")
	if len(res) != 1 || js(res[0]["permission_denials"]) != `[{"tool_input":{"command":"touch asked-for"},"tool_name":"Bash","tool_use_id":"toolu_1"}]` {
		t.Errorf("results %s, want the call denied", js(res))
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := reqs[1].ToolResults(); len(got) != 1 || !strings.Contains(got[0].ResultText(), "Nobody can approve it") {
		t.Errorf("the model was told %+v", got)
	}
}

// The skills option as a list limits the model to those skills: the
// listing it is sent names them alone and the Skill tool refuses another
// (the user's own /commands are not narrowed). reins ignored the list,
// so every skill stayed listed and loadable.
func TestQA10SkillsOptionLimitsTheModelToTheListedSkills(t *testing.T) {
	srv := server(t,
		call("toolu_1", "Skill", `{"skill":"beta"}`, 100, 5),
		call("toolu_2", "Skill", `{"skill":"alpha"}`, 110, 5),
		reply("Done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/skills/alpha/SKILL.md", "---\nname: alpha\ndescription: ALPHA-SKILL does the first thing.\n---\nAlpha steps.\n")
	sb.Write(t, ".claude/skills/beta/SKILL.md", "---\nname: beta\ndescription: BETA-SKILL does the second thing.\n---\nBeta steps.\n")
	msgs, summary := runScript(t, sb, "qa10.mjs", "skills")
	if len(ofType(msgs, "result", "")) != 1 {
		t.Fatalf("no result: %s", js(msgs))
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	first, _ := json.Marshal(reqs[0].Messages)
	if !strings.Contains(string(first), "ALPHA-SKILL") || strings.Contains(string(first), "BETA-SKILL") {
		t.Errorf("the first request's skill listing does not name alpha alone: %s", first)
	}
	var beta, alpha string
	for _, b := range reqs[1].ToolResults() {
		beta += b.ResultText()
	}
	if !strings.Contains(beta, "Unknown skill: beta") {
		t.Errorf("Skill beta gave %q, want it refused", beta)
	}
	last, _ := json.Marshal(reqs[2].Messages)
	for _, b := range reqs[2].ToolResults() {
		alpha += b.ResultText()
	}
	if strings.Contains(alpha, "Unknown skill") || !strings.Contains(string(last), "Alpha steps.") {
		t.Errorf("Skill alpha gave %q (request %s), want it loaded", alpha, last)
	}
	if got, _ := summary["stderr"].(string); strings.Contains(got, "initialize skills") {
		t.Errorf("stderr %q: alpha exists", got)
	}
}

// planModeInstructions reach the model in the plan-mode note of a session
// started in plan mode, between the read-only rule and the words on
// presenting the plan with ExitPlanMode. reins ignored them.
func TestQA10PlanModeInstructionsReachThePlanModeNote(t *testing.T) {
	srv := server(t, reply("Risks: none.", 100, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	runScript(t, sb, "qa10.mjs", "planInstructions")
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var note string
	for _, m := range reqs[0].Messages {
		for _, b := range m.Content {
			if strings.Contains(b.Text, "Plan mode is on") {
				note = b.Text
			}
		}
	}
	rule, workflow, footer := strings.Index(note, "read-only tools only"), strings.Index(note, "HOST-WORKFLOW: list the risks first."), strings.Index(note, "ExitPlanMode")
	if rule < 0 || workflow < rule || footer < workflow {
		t.Errorf("plan-mode note %q, want the read-only rule, the host's workflow, then ExitPlanMode", note)
	}
}

// reconnectMcpServer answers once the server is connected again, for a
// server the SDK hosts and a stdio one, and the next turn can call their
// tools. Before, the reconnection was taken as a crash: the status said
// "failed … reconnecting in 500ms" after the call had succeeded, and a
// server the SDK hosts was still down for the next turn.
func TestQA10ReconnectMcpServerAnswersOnceTheServerIsBack(t *testing.T) {
	srv := server(t,
		reply("One done.", 100, 5),
		call("toolu_1", "mcp__hosted__shout", `{"text":"hi"}`, 110, 5),
		call("toolu_2", "mcp__reverser__reverse", `{"text":"abc"}`, 120, 5),
		reply("Two done.", 130, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "qa10.mjs", "reconnect", "ENABLE_TOOL_SEARCH=false")
	if got := js(summary["reconnected"]); got != `["hosted ok","reverser ok"]` {
		t.Errorf("reconnectMcpServer answered %s", got)
	}
	if got := js(summary["status"]); got != `["hosted connected","reverser connected"]` {
		t.Errorf("status right after the reconnections %s, want both connected", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range map[int]string{2: "HI", 3: "cba"} {
		var got string
		for _, b := range reqs[i].ToolResults() {
			got += b.ResultText()
		}
		if got != want {
			t.Errorf("request %d carried the tool result %q, want %q", i, got, want)
		}
	}
}

// An env option without PATH is reins's whole environment: the Bash tool
// still finds bash where it is usually installed, and bash runs commands
// from its default PATH. Before, every call failed "exec: "bash":
// executable file not found in $PATH".
func TestQA10EnvOptionWithoutPathStillRunsBash(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		if _, err := os.Stat("/usr/bin/bash"); err != nil {
			t.Skip("bash is not installed in a usual place")
		}
	}
	srv := server(t,
		call("toolu_1", "Bash", `{"command":"ls -d / && echo listed"}`, 100, 5),
		reply("Done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	runScript(t, sb, "qa10.mjs", "noPath")
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := reqs[1].ToolResults(); len(got) != 1 || got[0].ResultText() != "/\nlisted" {
		t.Errorf("the Bash call gave %+v, want its output", got)
	}
}

// The taskBudget option (--task-budget) is sent to the model as
// output_config.task_budget, beside the effort, with its beta. reins
// ignored it ("unknown option").
func TestQA10TaskBudgetOptionReachesTheRequest(t *testing.T) {
	srv := server(t, reply("Hello.", 100, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "qa10.mjs", "taskBudget")
	if got, _ := summary["stderr"].(string); strings.Contains(got, "task-budget") {
		t.Errorf("stderr %q", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	var body struct {
		OutputConfig struct {
			TaskBudget json.RawMessage `json:"task_budget"`
		} `json:"output_config"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	if got := string(body.OutputConfig.TaskBudget); got != `{"type":"tokens","total":50000}` {
		t.Errorf("output_config.task_budget = %s", got)
	}
	if level, _ := reqs[0].Effort(); level == "" {
		t.Error("the effort was lost from output_config")
	}
	if got := reqs[0].Header.Values("anthropic-beta"); !strings.Contains(strings.Join(got, ","), "task-budgets-2026-03-13") {
		t.Errorf("anthropic-beta %q, want the task budget beta", got)
	}
}

// The SDK's projectConfigRoot reaches reins as --project-config-root and
// the session runs (e2e/projectroot_test.go checks what it reads there).
func TestQA10ProjectConfigRootIsTaken(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	_, summary := runScript(t, sb, "qa10.mjs", "projectRoot")
	if got, _ := summary["outcome"].(string); got != "ran" {
		t.Errorf("outcome %q, want the session to run", got)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d model requests, want 1", n)
	}
}

// A turn that ends on an API error yields, before its result, a synthetic
// assistant message (model "<synthetic>") whose error names the kind, as
// the SDK's SDKAssistantMessage.error documents: a client can tell a bad
// key (authentication_failed) from a rate limit without parsing text.
// reins gave the result alone.
func TestQA10APIErrorYieldsAnAssistantMessageWithTheErrorKind(t *testing.T) {
	srv := server(t, llmtest.Turn{Fault: &llmtest.Fault{Status: 401, ErrorType: "authentication_error", Message: "invalid x-api-key"}})
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, _ := runScript(t, sb, "qa10.mjs", "apiError")
	n := len(msgs)
	if n < 2 || msgs[n-1]["type"] != "result" || msgs[n-2]["type"] != "assistant" {
		t.Fatalf("messages %s, want an assistant message then the result", js(msgs))
	}
	a := msgs[n-2]
	msg, _ := a["message"].(map[string]any)
	if a["error"] != "authentication_failed" || msg["model"] != "<synthetic>" || !strings.Contains(js(msg["content"]), "invalid x-api-key") {
		t.Errorf("assistant message %s", js(a))
	}
	if r := msgs[n-1]; r["is_error"] != true || r["api_error_status"] != float64(401) {
		t.Errorf("result %s", js(r))
	}
}

// managedSettings, settings and disallowedTools delivered in the
// initialize request (the SDK's *Delivery 'initialize': reins is started
// with --await-initialize, --managed-settings-in-initialize and
// --initialize-fields) apply as their flags do: the host's deny rule
// holds, the settings' env reaches Bash, and the disallowed tool is gone.
// reins ignored the three (unknown options), so none applied.
func TestQA10SettingsDeliveredInInitializeApply(t *testing.T) {
	srv := server(t,
		call("toolu_1", "Bash", `{"command":"touch made"}`, 100, 5),
		call("toolu_2", "Bash", `{"command":"echo env=$FROM_INIT_SETTINGS"}`, 110, 5),
		reply("Done.", 120, 5))
	sb := e2etest.NewSandbox(t, srv.URL)
	msgs, _ := runScript(t, sb, "qa10.mjs", "initDelivery")
	res := ofType(msgs, "result", "")
	if len(res) != 1 || !strings.Contains(js(res[0]["permission_denials"]), `"touch made"`) {
		t.Errorf("results %s, want the touch call denied by the host's policy", js(res))
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, tl := range reqs[0].Tools {
		if strings.Contains(string(tl), `"name":"Write"`) {
			t.Error("Write is offered though disallowedTools removed it")
		}
	}
	if got := reqs[2].ToolResults(); len(got) != 1 || got[0].ResultText() != "env=yes" {
		t.Errorf("the env command gave %+v, want the settings' variable", got)
	}
}
