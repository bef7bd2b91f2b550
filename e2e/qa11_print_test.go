package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A print run whose request the API refuses ends as Claude Code's does:
// the result is a success-subtype line with is_error set whose result is
// the error's text, terminal_reason api_error (prompt_too_long for a
// prompt over the window), stop_reason stop_sequence and one turn; in
// stream-json a synthetic assistant message carrying the error comes
// before it. The run exits 1.
func TestPrintAPIErrorResultHasClaudeCodesShape(t *testing.T) {
	for _, tc := range []struct {
		name     string
		turn     llmtest.Turn
		status   float64
		terminal string
		kind     string
	}{
		{"invalid request", llmtest.Turn{Fault: &llmtest.Fault{Status: 400, ErrorType: "invalid_request_error", Message: "messages.0: bad thing"}},
			400, "api_error", "invalid_request"},
		{"bad key", llmtest.Turn{Fault: &llmtest.Fault{Status: 401, ErrorType: "authentication_error", Message: "invalid x-api-key"}},
			401, "api_error", "authentication_failed"},
		{"prompt too long", llmtest.PromptTooLong(), 400, "prompt_too_long", "invalid_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t, tc.turn)
			sb := e2etest.NewSandbox(t, srv.URL)
			r := sb.Run(t, "", "-p", "go", "--output-format", "json")
			if r.Code != 1 {
				t.Fatalf("json: code %d, want 1: %s", r.Code, r.Stderr)
			}
			var res map[string]any
			if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
				t.Fatalf("json result %q: %v", r.Stdout, err)
			}
			checkAPIErrorResult(t, res, tc.status, tc.terminal)

			srv2 := server(t, tc.turn)
			sb2 := e2etest.NewSandbox(t, srv2.URL)
			r = sb2.Run(t, "", "-p", "go", "--output-format", "stream-json", "--verbose")
			if r.Code != 1 {
				t.Fatalf("stream-json: code %d, want 1: %s", r.Code, r.Stderr)
			}
			lines := decodeLines(t, r.Stdout)
			if len(lines) < 2 {
				t.Fatalf("stream-json: %d lines: %s", len(lines), r.Stdout)
			}
			last, before := lines[len(lines)-1], lines[len(lines)-2]
			checkAPIErrorResult(t, last, tc.status, tc.terminal)
			msg, _ := before["message"].(map[string]any)
			if before["type"] != "assistant" || before["error"] != tc.kind || msg["model"] != "<synthetic>" {
				t.Errorf("line before the result = %v, want the synthetic assistant message with error %q", before, tc.kind)
			}
		})
	}
}

func checkAPIErrorResult(t *testing.T, res map[string]any, status float64, terminal string) {
	t.Helper()
	text, _ := res["result"].(string)
	if res["type"] != "result" || res["subtype"] != "success" || res["is_error"] != true {
		t.Errorf("type %v subtype %v is_error %v, want result success true", res["type"], res["subtype"], res["is_error"])
	}
	if !strings.Contains(text, "API error") {
		t.Errorf("result = %q, want the error's text", text)
	}
	if res["api_error_status"] != status || res["terminal_reason"] != terminal || res["stop_reason"] != "stop_sequence" || res["num_turns"] != float64(1) {
		t.Errorf("api_error_status %v terminal_reason %v stop_reason %v num_turns %v, want %v %s stop_sequence 1",
			res["api_error_status"], res["terminal_reason"], res["stop_reason"], res["num_turns"], status, terminal)
	}
}

// A print run stopped by a signal during a turn exits with 128 plus the
// signal's number, as a process the signal ends does and as Claude Code
// does for SIGTERM (143); reins gave 130 whatever the signal. SIGINT
// keeps 130.
func TestPrintStoppedBySignalExitsWithItsStatus(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			srv := server(t)
			sb := e2etest.NewSandbox(t, srv.URL)
			marker := filepath.Join(sb.Dir, "started")
			srv.Add(llmtest.Calls(llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "touch " + marker + " && sleep 30"})),
				llmtest.Reply("unused"))
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			cmd := sb.Command(t, ctx, "-p", "sleep", "--output-format", "json", "--allowedTools", "Bash")
			var out strings.Builder
			cmd.Stdout = &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				if ctx.Err() != nil {
					t.Fatal("the tool never started")
				}
				time.Sleep(20 * time.Millisecond)
			}
			cmd.Process.Signal(tc.sig)
			err := cmd.Wait()
			if got := cmd.ProcessState.ExitCode(); got != tc.code {
				t.Errorf("exit code %d (err %v), want %d", got, err, tc.code)
			}
			var res map[string]any
			if err := json.Unmarshal([]byte(out.String()), &res); err != nil || res["is_error"] != true {
				t.Errorf("result %q (%v), want an error result", out.String(), err)
			}
		})
	}
}

// A print run that spends its --max-budget-usd ends with the
// error_max_budget_usd result whose terminal_reason is budget_exhausted,
// Claude Code's name for it (reins said max_budget_usd), and exits 1.
func TestPrintBudgetResultSaysBudgetExhausted(t *testing.T) {
	big := &llmtest.UsageSpec{InputTokens: 200000, OutputTokens: 100}
	srv := server(t,
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.ToolUse("toolu_1", "Bash", map[string]any{"command": "echo 1"})}, Usage: big},
		llmtest.Reply("unused"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "go", "--output-format", "json", "--max-budget-usd", "0.5", "--allowedTools", "Bash")
	if r.Code != 1 {
		t.Fatalf("code %d, want 1: %s", r.Code, r.Stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("result %q: %v", r.Stdout, err)
	}
	if res["subtype"] != "error_max_budget_usd" || res["is_error"] != true || res["terminal_reason"] != "budget_exhausted" {
		t.Errorf("subtype %v is_error %v terminal_reason %v, want error_max_budget_usd true budget_exhausted",
			res["subtype"], res["is_error"], res["terminal_reason"])
	}
}

// A text-mode answer read by a pipe that closes after the first line
// (reins -p ... | head -1) still ends the run as a success, exit 0, as
// Claude Code's does; reins was killed by SIGPIPE (141 to a shell), so a
// pipefail script stopped there.
func TestPrintTextAnswerToAClosedPipeExitsZero(t *testing.T) {
	var long strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	srv := server(t, llmtest.Reply(long.String()))
	sb := e2etest.NewSandbox(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "count")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || first != "line 0\n" {
		t.Fatalf("first line %q (%v)", first, err)
	}
	stdout.Close() // the answer is far over a pipe's buffer: the rest of it meets a closed pipe
	err = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d (%v), want 0; stderr %q", code, err, stderr.String())
	}
}

// A json or stream-json print run with no API key writes the result line
// Claude Code writes for it (is_error, the reason as result,
// terminal_reason api_error) instead of no line at all, so a reader
// parsing stdout gets JSON; the reason is on stderr too and the exit
// status is 1.
func TestPrintWithoutAKeyWritesAnErrorResult(t *testing.T) {
	for _, format := range []string{"json", "stream-json"} {
		t.Run(format, func(t *testing.T) {
			sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
			sb.Env = append(sb.Env, "ANTHROPIC_API_KEY=")
			r := sb.Run(t, "", "-p", "hi", "--output-format", format, "--verbose")
			if r.Code != 1 || !strings.Contains(r.Stderr, "ANTHROPIC_API_KEY") {
				t.Fatalf("code %d stderr %q, want 1 and the key named", r.Code, r.Stderr)
			}
			lines := decodeLines(t, r.Stdout)
			res := lines[len(lines)-1]
			text, _ := res["result"].(string)
			if res["type"] != "result" || res["is_error"] != true || res["terminal_reason"] != "api_error" ||
				!strings.Contains(text, "ANTHROPIC_API_KEY") {
				t.Errorf("last line %v, want an api_error result naming the key", res)
			}
		})
	}
}

// --max-budget-usd 0 or below is refused before the run starts, as
// Claude Code refuses it; reins took it as no budget at all and ran
// without a limit.
func TestPrintRefusesABudgetOfZeroOrLess(t *testing.T) {
	for _, v := range []string{"0", "-1"} {
		srv := server(t, llmtest.Reply("Spent."))
		sb := e2etest.NewSandbox(t, srv.URL)
		r := sb.Run(t, "", "-p", "hi", "--max-budget-usd="+v)
		if r.Code == 0 || !strings.Contains(r.Stderr, "--max-budget-usd") {
			t.Errorf("--max-budget-usd=%s: code %d stderr %q, want a refusal naming the flag", v, r.Code, r.Stderr)
		}
	}
}
