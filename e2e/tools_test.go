package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm"
	"reins/internal/llm/llmtest"
	"reins/internal/session"
)

func TestMultiTurnParallelReadsAndBashResultsInCallOrder(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	a := sb.Write(t, "a.txt", "alpha\n")
	b := sb.Write(t, "b.txt", "bravo\n")
	c := sb.Write(t, "c.txt", "charlie\n")
	srv.Add(
		llmtest.Calls(llmtest.Text("Reading three files."),
			llmtest.ToolUse("toolu_a", "Read", map[string]any{"file_path": a}),
			llmtest.ToolUse("toolu_b", "Read", map[string]any{"file_path": b}),
			llmtest.ToolUse("toolu_c", "Read", map[string]any{"file_path": c})),
		llmtest.Calls(llmtest.ToolUse("toolu_d", "Bash", map[string]any{"command": "cat a.txt b.txt | wc -l", "description": "count lines"})),
		llmtest.Reply("Two lines in a and b."))
	r := sb.Run(t, "", "-p", "look at the files", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	lines := decodeLines(t, r.Stdout)
	var results []string
	var kinds []string
	for _, l := range lines {
		kinds = append(kinds, l["type"].(string))
		if l["type"] != "user" {
			continue
		}
		msg := l["message"].(map[string]any)
		blk := msg["content"].([]any)[0].(map[string]any)
		results = append(results, blk["tool_use_id"].(string))
		if _, ok := l["tool_use_result"]; !ok {
			t.Errorf("user line without tool_use_result: %v", l)
		}
	}
	if got := strings.Join(results, ","); got != "toolu_a,toolu_b,toolu_c,toolu_d" {
		t.Errorf("tool results in order %s", got)
	}
	if kinds[0] != "system" || kinds[len(kinds)-1] != "result" {
		t.Errorf("line kinds %v", kinds)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	res := reqs[1].ToolResults()
	for i, want := range []string{"alpha", "bravo", "charlie"} {
		if !strings.Contains(res[i].ResultText(), want) {
			t.Errorf("result %d = %q", i, res[i].ResultText())
		}
	}
	if got := reqs[2].ToolResults()[0].ResultText(); strings.TrimSpace(got) != "2" {
		t.Errorf("bash result %q", got)
	}
	last := lines[len(lines)-1]
	// num_turns counts the prompt and the four tool results (Claude
	// Code's count), not the three model responses.
	if last["result"] != "Two lines in a and b." || last["num_turns"].(float64) != 5 {
		t.Errorf("result line %v", last)
	}
}

func TestBashNeedsPermissionInPrintModeAndDenialIsReported(t *testing.T) {
	srv := server(t,
		llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch made.txt"})),
		llmtest.Reply("could not"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "make a file", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res struct {
		PermissionDenials []map[string]any `json:"permission_denials"`
	}
	json.Unmarshal([]byte(r.Stdout), &res)
	if len(res.PermissionDenials) != 1 || res.PermissionDenials[0]["tool_name"] != "Bash" {
		t.Errorf("denials %v", res.PermissionDenials)
	}
	if _, err := os.Stat(filepath.Join(sb.Dir, "made.txt")); err == nil {
		t.Error("the denied command ran")
	}
	if got := srv.Requests()[1].ToolResults()[0]; !got.IsError {
		t.Errorf("denial is not an error result: %+v", got)
	}
}

// transcriptMessages loads the session's messages through the resume path.
func transcriptMessages(t *testing.T, sb *e2etest.Sandbox) ([]*llm.Message, *session.Transcript) {
	t.Helper()
	ts := sb.Transcripts(t)
	if len(ts) != 1 {
		t.Fatalf("transcripts %v", ts)
	}
	tr, err := session.Load(ts[0])
	if err != nil {
		t.Fatal(err)
	}
	var msgs []*llm.Message
	for _, it := range tr.Items {
		msgs = append(msgs, it.Message)
	}
	return msgs, tr
}

func TestSIGINTDuringToolAnswersEveryCallAndExits(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	marker := filepath.Join(sb.Dir, "started")
	srv.Add(
		llmtest.Calls(
			llmtest.ToolUse("toolu_sleep", "Bash", map[string]any{"command": "touch " + marker + " && sleep 30"}),
			llmtest.ToolUse("toolu_after", "Bash", map[string]any{"command": "echo never"})),
		llmtest.Reply("unused"))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "sleep", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash")
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the tool never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	var out []string
	for l := range lines {
		out = append(out, l)
	}
	err := cmd.Wait()
	if time.Since(start) > 10*time.Second {
		t.Errorf("exit took %s after SIGINT", time.Since(start))
	}
	if cmd.ProcessState.ExitCode() != 130 {
		t.Errorf("exit code %d (err %v), want 130", cmd.ProcessState.ExitCode(), err)
	}
	if len(out) == 0 || !strings.Contains(out[len(out)-1], `"type":"result"`) {
		t.Errorf("no result line after SIGINT: %v", out)
	}
	msgs, _ := transcriptMessages(t, sb)
	answered := map[string]bool{}
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult {
				answered[b.ToolUseID] = true
			}
		}
	}
	if !answered["toolu_sleep"] || !answered["toolu_after"] {
		t.Errorf("answered = %v; both calls must be answered", answered)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests after SIGINT, want 1", n)
	}
}

func TestKill9MidToolThenContinueKeepsHistoryAndAnswersTheCall(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	marker := filepath.Join(sb.Dir, "started")
	srv.Add(
		llmtest.Calls(llmtest.Text("Working on it."),
			llmtest.ToolUse("toolu_long", "Bash", map[string]any{"command": "touch " + marker + " && sleep 30"})))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "first task", "--allowedTools", "Bash")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the tool never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()

	srv.Add(llmtest.Reply("resumed fine"))
	r := sb.Run(t, "", "-p", "--continue", "second task")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "resumed fine" {
		t.Fatalf("continue: code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	var texts []string
	var answered bool
	for _, m := range last.Messages {
		for _, b := range m.Content {
			switch b.Type {
			case llm.BlockText:
				texts = append(texts, b.Text)
			case llm.BlockToolResult:
				if b.ToolUseID == "toolu_long" && b.IsError {
					answered = true
				}
			}
		}
	}
	joined := strings.Join(texts, "|")
	for _, want := range []string{"first task", "Working on it.", "second task"} {
		if !strings.Contains(joined, want) {
			t.Errorf("resumed request lacks %q: %s", want, joined)
		}
	}
	if !answered {
		t.Error("the dangling call was not answered with an error result")
	}
	if got := len(sb.Transcripts(t)); got != 1 {
		t.Errorf("%d transcripts; --continue should append to the same session", got)
	}
}
