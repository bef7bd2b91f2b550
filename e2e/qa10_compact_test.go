package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// summaryMarker is in the request that asks the model for a compaction
// summary.
const summaryMarker = "about to be replaced by a summary"

// summaryRequests counts the compaction summary requests the server got.
func summaryRequests(srv *llmtest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if strings.Contains(r.LastUserText(), summaryMarker) {
			n++
		}
	}
	return n
}

func TestSubagentDoesNotAutocompactWhenAutoCompactEnabledIsFalse(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	f := sb.Write(t, "notes.txt", "the launch code is tangerine\n")
	srv.Add(
		llmtest.Turn{Match: isMain("survey the notes"), Blocks: []llmtest.Block{
			agentCall("toolu_agent", "read notes", "TASK-BIG: read notes.txt", "general-purpose", nil),
		}},
		llmtest.Turn{Match: isSubagent("TASK-BIG"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": f}),
		}, Usage: &llmtest.UsageSpec{InputTokens: 45000, OutputTokens: 100}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) },
			Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>sub-agent summary</summary>")}},
		llmtest.Turn{Match: answers("TASK-BIG", "toolu_r"), Blocks: []llmtest.Block{llmtest.Text("the notes say tangerine")}},
		llmtest.Turn{Match: isMain("tangerine"), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb.Write(t, ".claude/settings.json", `{"autoCompactEnabled":false,"models":{"claude-sonnet-4-5":{"contextWindow":60000,"maxOutputTokens":8000}}}`)
	r := sb.Run(t, "", "-p", "survey the notes", "--model", "sonnet")
	if r.Code != 0 {
		for _, q := range srv.Requests() {
			t.Logf("req sys-sub=%v last=%.120q", strings.Contains(q.SystemText(), subagentMarker), q.LastUserText())
		}
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	if n := summaryRequests(srv); n != 0 {
		t.Errorf("%d compaction summary requests with autoCompactEnabled false; the sub-agent compacted anyway", n)
	}
}

// subagentCompacts scripts a session whose sub-agent (Agent call
// toolu_agent) crosses the autocompaction threshold of a 60,000-token
// window after reading notes.txt, is summarised, and answers.
func subagentCompacts(t *testing.T, settings string) (*llmtest.Server, *e2etest.Sandbox) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	f := sb.Write(t, "notes.txt", "the launch code is tangerine\n")
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	not := func(m func(*llmtest.Request) bool) func(*llmtest.Request) bool {
		return func(r *llmtest.Request) bool { return !isSum(r) && m(r) }
	}
	srv.Add(
		llmtest.Turn{Match: not(isMain("survey the notes")), Blocks: []llmtest.Block{
			agentCall("toolu_agent", "read notes", "TASK-BIG: read notes.txt", "general-purpose", nil),
		}},
		llmtest.Turn{Match: not(isSubagent("TASK-BIG")), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_r", "Read", map[string]any{"file_path": f}),
		}, Usage: &llmtest.UsageSpec{InputTokens: 45000, OutputTokens: 100}},
		llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>sub-agent summary</summary>")}},
		llmtest.Turn{Match: not(func(r *llmtest.Request) bool { return strings.Contains(r.SystemText(), subagentMarker) }),
			ResetPrefix: true, Blocks: []llmtest.Block{llmtest.Text("the notes say tangerine")}},
		llmtest.Turn{Match: not(isMain("tangerine")), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb.Write(t, ".claude/settings.json", `{`+settings+`"models":{"claude-sonnet-4-5":{"contextWindow":60000,"maxOutputTokens":8000}}}`)
	return srv, sb
}

func TestSubagentCompactionBoundaryIsMarkedWithItsAgentCallInStreamJSON(t *testing.T) {
	_, sb := subagentCompacts(t, "")
	r := sb.Run(t, "", "-p", "survey the notes", "--model", "sonnet", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	line, _ := compactBoundary(t, r.Lines())
	if line == nil {
		t.Fatalf("no compact_boundary line for the sub-agent's compaction:\n%s", r.Stdout)
	}
	if line["parent_tool_use_id"] != "toolu_agent" {
		t.Errorf("compact_boundary parent_tool_use_id = %v, want toolu_agent (the sub-agent compacted, not the session): %v", line["parent_tool_use_id"], line)
	}
}

func TestSubagentCompactionRunsPreAndPostCompactHooksNamingTheAgent(t *testing.T) {
	_, sb := subagentCompacts(t, `"hooks":{
		"PreCompact":[{"matcher":"auto","hooks":[{"type":"command","command":"cat > \"$CLAUDE_PROJECT_DIR/pre.json\""}]}],
		"PostCompact":[{"matcher":"auto","hooks":[{"type":"command","command":"cat > \"$CLAUDE_PROJECT_DIR/post.json\""}]}]},`)
	r := sb.Run(t, "", "-p", "survey the notes", "--model", "sonnet")
	if r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	for _, name := range []string{"pre.json", "post.json"} {
		data, err := os.ReadFile(filepath.Join(sb.Dir, name))
		if err != nil {
			t.Errorf("the %s hook did not run for the sub-agent's compaction: %v", name, err)
			continue
		}
		var in map[string]any
		if err := json.Unmarshal(data, &in); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if in["trigger"] != "auto" || in["agent_type"] != "general-purpose" || in["agent_id"] == nil || in["agent_id"] == "" {
			t.Errorf("%s hook input = %s; want trigger auto and the sub-agent's id and type", name, data)
		}
	}
	post, _ := os.ReadFile(filepath.Join(sb.Dir, "post.json"))
	if !strings.Contains(string(post), "sub-agent summary") {
		t.Errorf("PostCompact compact_summary lacks the sub-agent's summary: %s", post)
	}
}

func TestPromptTooLongAgainAfterReactiveCompactionEndsWithAdvice(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	not := func(r *llmtest.Request) bool { return !isSum(r) }
	p1, p2 := llmtest.PromptTooLong(), llmtest.PromptTooLong()
	p1.Match, p2.Match = not, not
	srv.Add(
		llmtest.Turn{Match: not, Blocks: []llmtest.Block{llmtest.Text("first answer")}},
		p1,
		llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>the first exchange</summary>")}},
		p2,
	)
	if r := sb.Run(t, "", "-p", "one", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "two", "-c", "--model", "sonnet")
	if r.Code == 0 {
		t.Fatalf("a prompt refused after the compaction succeeded: %q", r.Stdout)
	}
	if summaryRequests(srv) != 1 {
		t.Errorf("%d summary requests, want one reactive compaction", summaryRequests(srv))
	}
	if !strings.Contains(r.Stderr, "prompt is too long") || !strings.Contains(r.Stderr, "still too long after the conversation was compacted") ||
		!strings.Contains(r.Stderr, "/clear") {
		t.Errorf("stderr %q: want the refusal and what to do about it", r.Stderr)
	}
}

func TestSubagentTodoListIsGivenBackAfterItsCompaction(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	not := func(m func(*llmtest.Request) bool) func(*llmtest.Request) bool {
		return func(r *llmtest.Request) bool { return !isSum(r) && m(r) }
	}
	inSub := func(r *llmtest.Request) bool { return strings.Contains(r.SystemText(), subagentMarker) }
	todos := map[string]any{"todos": []map[string]any{
		{"content": "Check the WALRUS module", "status": "in_progress", "activeForm": "Checking the WALRUS module"},
	}}
	srv.Add(
		llmtest.Turn{Match: not(isMain("survey the modules")), Blocks: []llmtest.Block{
			agentCall("toolu_agent", "survey", "TASK-TODO: survey the modules", "general-purpose", nil),
		}},
		llmtest.Turn{Match: not(isSubagent("TASK-TODO")), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_t", "TodoWrite", todos),
		}, Usage: &llmtest.UsageSpec{InputTokens: 45000, OutputTokens: 100}},
		llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>a plan was made</summary>")}},
		llmtest.Turn{Match: not(inSub), ResetPrefix: true, Blocks: []llmtest.Block{llmtest.Text("surveyed")}},
		llmtest.Turn{Match: not(isMain("surveyed")), Blocks: []llmtest.Block{llmtest.Text("Done.")}},
	)
	sb.Write(t, ".claude/settings.json", `{"models":{"claude-sonnet-4-5":{"contextWindow":60000,"maxOutputTokens":8000}}}`)
	r := sb.Run(t, "", "-p", "survey the modules", "--model", "sonnet")
	if r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	var after *llmtest.Request
	for _, q := range srv.Requests() {
		if inSub(q) && !isSum(q) && strings.Contains(string(q.Body), "a plan was made") {
			after = q
		}
	}
	if after == nil {
		t.Fatal("no sub-agent request after its compaction")
	}
	// The call that wrote the list may be kept verbatim; the list itself
	// is given back as the list.
	if !strings.Contains(string(after.Body), "The todo list so far:\\n- [in_progress] Check the WALRUS module") {
		t.Error("the sub-agent's todo list is not given back after its compaction")
	}
}

func TestPreCompactHookOutputJoinsTheSummaryInstructions(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	srv.Add(
		llmtest.Reply("first answer"),
		llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>short</summary>")}},
	)
	sb.Write(t, ".claude/settings.json", `{"hooks":{"PreCompact":[{"matcher":"manual","hooks":[{"type":"command","command":"echo 'Keep every OTTER note.'"}]}]}}`)
	if r := sb.Run(t, "", "-p", "one"); r.Code != 0 {
		t.Fatalf("code %d err %q", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "/compact keep the names", "-c")
	if r.Code != 0 {
		t.Fatalf("/compact: code %d err %q", r.Code, r.Stderr)
	}
	var sum *llmtest.Request
	for _, q := range srv.Requests() {
		if isSum(q) {
			sum = q
		}
	}
	if sum == nil {
		t.Fatal("no summary request")
	}
	if text := sum.LastUserText(); !strings.Contains(text, "keep the names") || !strings.Contains(text, "Keep every OTTER note.") {
		t.Errorf("summary request lacks the user's instructions or the PreCompact hook's output:\n%s", text)
	}
}
