package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/session"
)

// messageTexts is the text of every message a request sent, one entry
// per content block, for assertions that ignore the system prompt.
func messageTexts(r *llmtest.Request) []string {
	var out []string
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockText {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

// refuseTurn is a prompt-too-long refusal of the requests m matches.
func refuseTurn(m func(*llmtest.Request) bool) llmtest.Turn {
	p := llmtest.PromptTooLong()
	p.Match = m
	return p
}

// goesOnAfterRefusal runs "-c -p three" after a refused prompt "two" and
// checks that the session goes on without it and with what came before.
func goesOnAfterRefusal(t *testing.T, srv *llmtest.Server, sb *e2etest.Sandbox, before string) {
	t.Helper()
	srv.Add(llmtest.Turn{Match: isMain("three"), Blocks: []llmtest.Block{llmtest.Text("third answer")}})
	r := sb.Run(t, "", "-p", "three", "-c", "--model", "sonnet")
	if r.Code != 0 || !strings.Contains(r.Stdout, "third answer") {
		t.Fatalf("the session did not go on after the refused prompt: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	texts := messageTexts(reqs[len(reqs)-1])
	if slicesContain(texts, "two") {
		t.Errorf("the refused prompt is sent again with the next one: %q", texts)
	}
	if !slicesContain(texts, before) {
		t.Errorf("what came before the refused prompt (%q) was lost: %q", before, texts)
	}
}

func slicesContain(texts []string, s string) bool {
	for _, t := range texts {
		if t == s {
			return true
		}
	}
	return false
}

func TestPromptRefusedWhenCompactionCannotHelpIsLeftOutOfTheResumedSession(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	srv.Add(
		llmtest.Turn{Match: isMain("one"), Blocks: []llmtest.Block{llmtest.Text("first answer")}},
		refuseTurn(func(r *llmtest.Request) bool { return !isSum(r) && strings.Contains(r.LastUserText(), "two") }),
		// The summary request is refused too, and again with its oldest
		// round dropped.
		refuseTurn(isSum), refuseTurn(isSum),
	)
	if r := sb.Run(t, "", "-p", "one", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	r := sb.Run(t, "", "-p", "two", "-c", "--model", "sonnet")
	if r.Code == 0 {
		t.Fatalf("a refused prompt succeeded: %q", r.Stdout)
	}
	for _, want := range []string{"prompt is too long", "too long even to summarise", "left out of the conversation", "/clear"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q lacks %q", r.Stderr, want)
		}
	}
	goesOnAfterRefusal(t, srv, sb, "first answer")
}

func TestPromptRefusedAgainAfterCompactionIsLeftOutOfTheResumedSession(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	not := func(r *llmtest.Request) bool { return !isSum(r) && strings.Contains(r.LastUserText(), "two") }
	srv.Add(
		llmtest.Turn{Match: isMain("one"), Blocks: []llmtest.Block{llmtest.Text("first answer")}},
		refuseTurn(not),
		llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>SUMMARY-OF-ONE</summary>")}},
		refuseTurn(not),
	)
	if r := sb.Run(t, "", "-p", "one", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "two", "-c", "--model", "sonnet"); r.Code == 0 || !strings.Contains(r.Stderr, "left out of the conversation") {
		t.Fatalf("second run: code %d err %q; want the refusal saying the prompt was left out", r.Code, r.Stderr)
	}
	srv.Add(llmtest.Turn{Match: isMain("three"), ResetPrefix: true, Blocks: []llmtest.Block{llmtest.Text("third answer")}})
	r := sb.Run(t, "", "-p", "three", "-c", "--model", "sonnet")
	if r.Code != 0 || !strings.Contains(r.Stdout, "third answer") {
		t.Fatalf("the session did not go on after the refused prompt: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	if slicesContain(messageTexts(last), "two") {
		t.Errorf("the refused prompt is sent again with the next one: %q", messageTexts(last))
	}
	if !strings.Contains(string(last.Body), "SUMMARY-OF-ONE") {
		t.Errorf("the compaction before the refusal was lost: %q", messageTexts(last))
	}
}

func TestFirstPromptRefusedAsTooLongDoesNotBlockTheNextOne(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	srv.Add(refuseTurn(func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), "two") }))
	r := sb.Run(t, "", "-p", "two", "--model", "sonnet")
	if r.Code == 0 || !strings.Contains(r.Stderr, "left out of the conversation") {
		t.Fatalf("code %d err %q; want the refusal saying the prompt was left out", r.Code, r.Stderr)
	}
	srv.Add(llmtest.Turn{Match: isMain("three"), Blocks: []llmtest.Block{llmtest.Text("third answer")}})
	r = sb.Run(t, "", "-p", "three", "-c", "--model", "sonnet")
	if r.Code != 0 || !strings.Contains(r.Stdout, "third answer") {
		t.Fatalf("the session did not go on after the refused prompt: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	if texts := messageTexts(reqs[len(reqs)-1]); slicesContain(texts, "two") {
		t.Errorf("the refused prompt is sent again with the next one: %q", texts)
	}
}

// todoCall is a TodoWrite call setting one item in progress.
func todoCall(id, item string) llmtest.Block {
	return llmtest.ToolUse(id, "TodoWrite", map[string]any{"todos": []map[string]any{
		{"content": item, "status": "in_progress", "activeForm": item}}})
}

// compactsAndGoesOn runs "/compact" then "go on" in the sandbox's latest
// session and returns the request of "go on".
func compactsAndGoesOn(t *testing.T, srv *llmtest.Server, sb *e2etest.Sandbox) *llmtest.Request {
	t.Helper()
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	srv.Add(
		llmtest.Turn{Match: isSum, Side: true, Blocks: []llmtest.Block{llmtest.Text("<summary>we planned</summary>")}},
		llmtest.Turn{Match: isMain("go on"), ResetPrefix: true, Blocks: []llmtest.Block{llmtest.Text("going on")}},
	)
	if r := sb.Run(t, "", "-p", "/compact", "-c", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("/compact: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "go on", "-c", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("go on: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	return reqs[len(reqs)-1]
}

func TestTodoListOfAContinuedSessionIsGivenBackAfterCompaction(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	srv.Add(
		llmtest.Turn{Match: isMain("plan the port"), Blocks: []llmtest.Block{todoCall("toolu_todo", "Port the PELICAN parser")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return len(r.ToolResults()) == 1 }, Blocks: []llmtest.Block{llmtest.Text("planned")}},
	)
	if r := sb.Run(t, "", "-p", "plan the port", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	last := compactsAndGoesOn(t, srv, sb)
	if !strings.Contains(string(last.Body), "[in_progress] Port the PELICAN parser") {
		t.Errorf("the todo list set before the session was continued is not given back after /compact: %q", messageTexts(last))
	}
}

func TestTodoListOfAClaudeCodeSessionIsGivenBackAfterCompaction(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	id := "7a1d9a2e-3b4c-4d5e-8f60-718293a4b5c6"
	dir := filepath.Join(sb.Home, ".claude", "projects", session.Slug(sb.Dir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	common := map[string]any{"isSidechain": false, "sessionId": id, "cwd": sb.Dir, "version": "2.1.328", "userType": "external", "entrypoint": "cli"}
	line := func(fields map[string]any) string {
		m := map[string]any{}
		for k, v := range common {
			m[k] = v
		}
		for k, v := range fields {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		return string(b) + "\n"
	}
	todos := map[string]any{"todos": []map[string]any{
		{"content": "Port the PELICAN parser", "status": "in_progress", "activeForm": "Porting the PELICAN parser"}}}
	data := line(map[string]any{"parentUuid": nil, "type": "user", "uuid": "cc-u1", "timestamp": "2026-11-29T21:20:26.857Z",
		"message": map[string]any{"role": "user", "content": "plan the port"}}) +
		line(map[string]any{"parentUuid": "cc-u1", "type": "assistant", "uuid": "cc-a1", "timestamp": "2026-11-29T21:20:27.059Z",
			"message": map[string]any{"id": "msg_cc1", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
				"content":     []any{map[string]any{"type": "tool_use", "id": "toolu_cc", "name": "TodoWrite", "input": todos}},
				"stop_reason": "tool_use", "usage": map[string]any{"input_tokens": 10, "output_tokens": 3}}}) +
		line(map[string]any{"parentUuid": "cc-a1", "type": "user", "uuid": "cc-u2", "timestamp": "2026-11-29T21:20:27.100Z",
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_cc",
				"content": "Todos have been modified successfully."}}},
			"toolUseResult": map[string]any{"oldTodos": []any{}, "newTodos": todos["todos"]}}) +
		line(map[string]any{"parentUuid": "cc-u2", "type": "assistant", "uuid": "cc-a2", "timestamp": "2026-11-29T21:20:28.000Z",
			"message": map[string]any{"id": "msg_cc2", "type": "message", "role": "assistant", "model": "claude-opus-5-5",
				"content": []any{map[string]any{"type": "text", "text": "planned"}}, "stop_reason": "end_turn",
				"usage": map[string]any{"input_tokens": 10, "output_tokens": 3}}})
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	last := compactsAndGoesOn(t, srv, sb)
	if !strings.Contains(string(last.Body), "[in_progress] Port the PELICAN parser") {
		t.Errorf("the todo list of Claude Code's session is not given back after /compact: %q", messageTexts(last))
	}
}

// After the SDK's /clear, a file read in the conversation left counts as
// not read: Edit refuses it until it is read again, as in a new session
// (reins let the edit through on the old read).
func TestSDKClearForgetsTheFilesReadBefore(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	notes := sb.Write(t, "notes.txt", "colour: red\n")
	srv.Add(
		llmtest.Turn{Match: isMain("read the notes"), Blocks: []llmtest.Block{llmtest.ToolUse("toolu_read", "Read", map[string]any{"file_path": notes})}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return len(r.ToolResults()) == 1 && r.ToolResults()[0].ToolUseID == "toolu_read"
		},
			Blocks: []llmtest.Block{llmtest.Text("read them")}},
		llmtest.Turn{Match: isMain("make it blue"), ResetPrefix: true, Blocks: []llmtest.Block{llmtest.ToolUse("toolu_edit", "Edit",
			map[string]any{"file_path": notes, "old_string": "red", "new_string": "blue"})}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool {
			return len(r.ToolResults()) == 1 && r.ToolResults()[0].ToolUseID == "toolu_edit"
		},
			Blocks: []llmtest.Block{llmtest.Text("edit answered")}},
	)
	send := sdkSession(t, sb, "--permission-mode", "acceptEdits")
	send("read the notes")
	send("/clear")
	send("make it blue")
	var res *llm.ContentBlock
	for _, r := range srv.Requests() {
		for _, b := range r.ToolResults() {
			if b.ToolUseID == "toolu_edit" {
				res = &b
			}
		}
	}
	if res == nil {
		t.Fatal("the Edit call was not answered")
	}
	if !res.IsError {
		t.Errorf("Edit of a file read only before /clear went through: %q", res.ResultText())
	}
	if data, _ := os.ReadFile(notes); string(data) != "colour: red\n" {
		t.Errorf("notes.txt = %q; the edit should have been refused until the file is read again", data)
	}
}

// writeCompactedSession writes a reins transcript of this sandbox's folder
// in which a plan was approved (ExitPlanMode) and the conversation was then
// compacted, so that the approval is only before the boundary.
func writeCompactedSession(t *testing.T, sb *e2etest.Sandbox, id, plan string) {
	t.Helper()
	dir := filepath.Join(sb.ConfigDir, "projects", session.Slug(sb.Dir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	parent := any(nil)
	var data []byte
	add := func(fields map[string]any) string {
		n++
		u := "00000000-0000-4000-8000-0000000000" + string(rune('a'+n/10)) + string(rune('0'+n%10))
		m := map[string]any{"parentUuid": parent, "isSidechain": false, "uuid": u, "sessionId": id, "cwd": sb.Dir,
			"timestamp": "2026-11-29T21:20:2" + string(rune('0'+n%10)) + ".000Z", "version": "0.1.0", "userType": "external"}
		for k, v := range fields {
			m[k] = v
		}
		b, _ := json.Marshal(m)
		data = append(append(data, b...), '\n')
		parent = u
		return u
	}
	asst := func(id string, content ...any) map[string]any {
		return map[string]any{"type": "assistant", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
			"model": "claude-sonnet-4-5", "content": content, "stop_reason": "end_turn", "usage": map[string]any{"input_tokens": 10, "output_tokens": 3}}}
	}
	usr := func(content any) map[string]any {
		return map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": content}}
	}
	add(usr("plan the port"))
	add(asst("msg_1", map[string]any{"type": "tool_use", "id": "toolu_plan", "name": "ExitPlanMode", "input": map[string]any{"plan": plan}}))
	add(usr([]any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_plan", "content": "The user approved the plan."}}))
	last := add(asst("msg_2", map[string]any{"type": "text", "text": "porting now"}))
	parent = nil
	add(map[string]any{"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "level": "info",
		"logicalParentUuid": last, "compactMetadata": map[string]any{"trigger": "auto", "preTokens": 1000}})
	s := usr("This session continues an earlier conversation. <summary>the port is under way</summary>")
	s["isCompactSummary"], s["isMeta"] = true, true
	add(s)
	add(asst("msg_3", map[string]any{"type": "text", "text": "continuing"}))
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestPlanApprovedBeforeAnEarlierCompactionIsGivenBackAfterTheNextOne(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	writeCompactedSession(t, sb, "3c2b1a09-8f7e-4d6c-9b5a-493827161504", "1. Port the PELICAN parser\n2. Test it")
	last := compactsAndGoesOn(t, srv, sb)
	if !strings.Contains(string(last.Body), "Port the PELICAN parser") {
		t.Errorf("the plan approved before the earlier compaction is not given back after /compact: %q", messageTexts(last))
	}
}

// sdkSession starts reins in stream-json mode and returns a function that
// sends a prompt and waits for its result line.
func sdkSession(t *testing.T, sb *e2etest.Sandbox, args ...string) func(text string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	cmd := sb.Command(t, ctx, append([]string{"-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 1<<20)
	return func(text string) map[string]any {
		t.Helper()
		msg, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
		in.Write(append(msg, '\n'))
		for lines.Scan() {
			var v map[string]any
			json.Unmarshal(lines.Bytes(), &v)
			if v["type"] == "result" {
				return v
			}
		}
		t.Fatalf("no result for %q", text)
		return nil
	}
}

func TestSDKSessionGoesOnAfterAPromptRefusedAsTooLong(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	isSum := func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), summaryMarker) }
	srv.Add(
		llmtest.Turn{Match: isMain("one"), Blocks: []llmtest.Block{llmtest.Text("first answer")}},
		refuseTurn(func(r *llmtest.Request) bool { return !isSum(r) && strings.Contains(r.LastUserText(), "two") }),
		refuseTurn(isSum), refuseTurn(isSum),
		llmtest.Turn{Match: isMain("three"), Blocks: []llmtest.Block{llmtest.Text("third answer")}},
	)
	send := sdkSession(t, sb, "--model", "sonnet")
	send("one")
	if res := send("two"); res["is_error"] != true {
		t.Fatalf("the refused prompt's result: %v", res)
	}
	if res := send("three"); res["result"] != "third answer" {
		t.Fatalf("the session did not go on after the refused prompt: %v", res)
	}
	reqs := srv.Requests()
	texts := messageTexts(reqs[len(reqs)-1])
	if slicesContain(texts, "two") || !slicesContain(texts, "first answer") {
		t.Errorf("the request after the refusal: %q; want the conversation before it, without the refused prompt", texts)
	}
}

// resultOf is the text of the result of call id in r, "" if none.
func resultOf(r *llmtest.Request, id string) (string, bool) {
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult && b.ToolUseID == id {
				return b.ResultText(), true
			}
		}
	}
	return "", false
}

// A process killed while one call of a batch still runs keeps the result
// of a call that had finished, even one after the running call: continued,
// the session sends it as it was, and only the unfinished call is answered
// as unknown. reins recorded a batch's results together once all were in,
// so the finished call's result was lost and reported as unknown too.
func TestKilledDuringABatchKeepsTheResultsAlreadyIn(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "kiwi-notes.txt", "x\n")
	srv.Add(
		llmtest.Turn{Match: isMain("look around"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_slow", "Bash", map[string]any{"command": "sleep 60", "description": "wait"}),
			llmtest.ToolUse("toolu_glob", "Glob", map[string]any{"pattern": "kiwi-*"}),
		}},
		llmtest.Turn{Match: isMain("go on"), Blocks: []llmtest.Block{llmtest.Text("went on")}},
	)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "look around", "--model", "sonnet", "--allowedTools", "Bash(sleep:*)")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until the Glob call's result is recorded, while the slow call
	// still runs.
	for {
		if paths := sb.Transcripts(t); len(paths) == 1 {
			if data, _ := os.ReadFile(paths[0]); strings.Contains(string(data), `"tool_use_id":"toolu_glob"`) {
				break
			}
		}
		if ctx.Err() != nil {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the finished Glob call's result was not recorded while the other call ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()

	r := sb.Run(t, "", "-p", "go on", "-c", "--model", "sonnet")
	if r.Code != 0 {
		t.Fatalf("continue: code %d err %q", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	glob, ok := resultOf(last, "toolu_glob")
	if !ok || !strings.Contains(glob, "kiwi-notes.txt") {
		t.Errorf("the finished Glob call's result is %q, want what it found", glob)
	}
	if slow, ok := resultOf(last, "toolu_slow"); !ok || !strings.Contains(slow, "No result was recorded") {
		t.Errorf("the unfinished call's result is %q, want it answered as unknown", slow)
	}
}

// Calls that finish out of call order are recorded as they finish; a
// continued session still sends their results in call order, as the
// session that ran them did, so its requests continue the same prefix.
func TestResultsRecordedAsTheyFinishResumeInCallOrder(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "kiwi-notes.txt", "x\n")
	srv.Add(
		llmtest.Turn{Match: isMain("look around"), Blocks: []llmtest.Block{
			llmtest.ToolUse("toolu_slow", "Bash", map[string]any{"command": "sleep 0.5; echo slow-done", "description": "wait"}),
			llmtest.ToolUse("toolu_glob", "Glob", map[string]any{"pattern": "kiwi-*"}),
		}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return len(r.ToolResults()) == 2 }, Blocks: []llmtest.Block{llmtest.Text("looked")}},
		llmtest.Turn{Match: isMain("go on"), Blocks: []llmtest.Block{llmtest.Text("went on")}},
	)
	if r := sb.Run(t, "", "-p", "look around", "--model", "sonnet", "--allowedTools", "Bash(sleep:*)", "--dangerously-skip-permissions"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "go on", "-c", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("continue: code %d err %q", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	var ids []string
	for _, m := range reqs[len(reqs)-1].Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				ids = append(ids, b.ToolUseID)
			}
		}
	}
	if len(ids) != 2 || ids[0] != "toolu_slow" || ids[1] != "toolu_glob" {
		t.Errorf("results after resuming: %q; want both, in call order", ids)
	}
	// The transcript holds them in the order they finished.
	data, err := os.ReadFile(sb.Transcripts(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	if g, s := strings.Index(string(data), `"tool_use_id":"toolu_glob"`), strings.Index(string(data), `"tool_use_id":"toolu_slow"`); g < 0 || s < 0 || g > s {
		t.Errorf("the Glob result (finished first) is not recorded before the slow one")
	}
	// The server's own check (the resumed request continues the prefix
	// of the one before) runs at cleanup.
}

// A batch of results over the per-message budget, recorded as each came
// in: the budget's replacements are recorded after them, and a continued
// session sends the replaced text, as the session that ran them did (the
// server checks that the resumed request continues the same prefix).
func TestBudgetReplacementsOfResultsRecordedEarlyAreResumed(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	var calls []llmtest.Block
	for i := range 8 {
		calls = append(calls, llmtest.ToolUse("toolu_big"+string(rune('a'+i)), "Bash",
			map[string]any{"command": "head -c 29000 /dev/zero | tr '\\0' " + string(rune('a'+i)), "description": "big"}))
	}
	srv.Add(
		llmtest.Turn{Match: isMain("make output"), Blocks: calls},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return len(r.ToolResults()) == 8 }, Blocks: []llmtest.Block{llmtest.Text("made")}},
		llmtest.Turn{Match: isMain("go on"), Blocks: []llmtest.Block{llmtest.Text("went on")}},
	)
	if r := sb.Run(t, "", "-p", "make output", "--model", "sonnet", "--dangerously-skip-permissions"); r.Code != 0 {
		t.Fatalf("first run: code %d err %q", r.Code, r.Stderr)
	}
	if r := sb.Run(t, "", "-p", "go on", "-c", "--model", "sonnet"); r.Code != 0 {
		t.Fatalf("continue: code %d err %q", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	persisted := 0
	for _, m := range reqs[len(reqs)-1].Messages {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult && strings.Contains(b.ResultText(), "<persisted-output>") {
				persisted++
			}
		}
	}
	if persisted == 0 {
		t.Errorf("no result of the 232,000-character batch was replaced in the continued session's request")
	}
}
