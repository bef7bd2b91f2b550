// Package e2e runs the built reins binary against the fake model server.
package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

func server(t *testing.T, turns ...llmtest.Turn) *llmtest.Server {
	t.Helper()
	srv, err := llmtest.Start(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.AssertClean(t)
		srv.Close()
	})
	return srv
}

func decodeLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var lines []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line is not JSON: %q", l)
		}
		lines = append(lines, m)
	}
	return lines
}

func TestVersionPrintsOnlyTheVersion(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	r := sb.Run(t, "", "--version")
	if r.Code != 0 || r.Stdout != "0.1.0 (reins)\n" {
		t.Fatalf("--version = %q (code %d)", r.Stdout, r.Code)
	}
	if _, err := os.Stat(sb.ConfigDir); err == nil {
		t.Error("--version created the config folder")
	}
	r = sb.Run(t, "", "-v")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "2.") {
		t.Fatalf("-v = %q", r.Stdout)
	}
}

func TestPrintTextAnswersAndRecordsTranscript(t *testing.T) {
	srv := server(t, llmtest.Reply("Hello there."))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "say hello")
	if r.Code != 0 || r.Stdout != "Hello there.\n" {
		t.Fatalf("stdout %q stderr %q code %d", r.Stdout, r.Stderr, r.Code)
	}
	ts := sb.Transcripts(t)
	if len(ts) != 1 {
		t.Fatalf("transcripts: %v", ts)
	}
	data, _ := os.ReadFile(ts[0])
	if !strings.Contains(string(data), `"say hello"`) || !strings.Contains(string(data), "Hello there.") {
		t.Errorf("transcript lacks the exchange:\n%s", data)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "say hello") {
		t.Errorf("request prompt = %q", got)
	}
}

func TestPromptFromStdin(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "piped question", "-p")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "piped question") {
		t.Errorf("prompt = %q", got)
	}
}

func TestJSONOutputIsOneResultObject(t *testing.T) {
	srv := server(t, llmtest.Reply("The answer is 4."))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "2+2?", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
		t.Fatalf("not one JSON object: %q", r.Stdout)
	}
	for k, want := range map[string]any{"type": "result", "subtype": "success", "is_error": false, "result": "The answer is 4.", "num_turns": 1.0} {
		if res[k] != want {
			t.Errorf("%s = %v, want %v", k, res[k], want)
		}
	}
	for _, k := range []string{"duration_ms", "duration_api_ms", "session_id", "total_cost_usd", "usage", "permission_denials", "modelUsage"} {
		if _, ok := res[k]; !ok {
			t.Errorf("result lacks %s", k)
		}
	}
}

func TestStreamJSONLines(t *testing.T) {
	srv := server(t, llmtest.Reply("streamed"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hi", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	lines := decodeLines(t, r.Stdout)
	if len(lines) != 3 {
		t.Fatalf("want init, assistant, result; got %d lines:\n%s", len(lines), r.Stdout)
	}
	if lines[0]["type"] != "system" || lines[0]["subtype"] != "init" || lines[0]["session_id"] == "" {
		t.Errorf("first line = %v", lines[0])
	}
	if lines[1]["type"] != "assistant" {
		t.Errorf("second line = %v", lines[1])
	}
	msg := lines[1]["message"].(map[string]any)
	if c := msg["content"].([]any)[0].(map[string]any); c["text"] != "streamed" {
		t.Errorf("assistant content = %v", c)
	}
	if lines[2]["type"] != "result" || lines[2]["result"] != "streamed" || lines[2]["session_id"] != lines[0]["session_id"] {
		t.Errorf("result = %v", lines[2])
	}
}

func TestNoAPIKeyNamesTheVariable(t *testing.T) {
	sb := e2etest.NewSandbox(t, "http://127.0.0.1:1")
	var env []string
	for _, e := range sb.Env {
		if !strings.HasPrefix(e, "ANTHROPIC_API_KEY=") {
			env = append(env, e)
		}
	}
	sb.Env = env
	r := sb.Run(t, "", "-p", "hi")
	if r.Code != 1 || !strings.Contains(r.Stderr, "ANTHROPIC_API_KEY") {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
}

func TestFaultsRecoverOrEndCleanly(t *testing.T) {
	long := strings.Repeat("word ", 40)
	cases := []struct {
		name     string
		turns    []llmtest.Turn
		env      []string
		wantCode int
		wantOut  string
		wantErr  string
		requests int
	}{
		{name: "429 with retry-after", turns: []llmtest.Turn{llmtest.RateLimited("0"), llmtest.Reply("ok")}, wantOut: "ok", requests: 2},
		{name: "529 overloaded", turns: []llmtest.Turn{llmtest.Overloaded(), llmtest.Reply("ok")}, wantOut: "ok", requests: 2},
		{name: "500", turns: []llmtest.Turn{{Fault: &llmtest.Fault{Status: 500}}, llmtest.Reply("ok")}, wantOut: "ok", requests: 2},
		{name: "reset mid-stream", turns: []llmtest.Turn{{Blocks: []llmtest.Block{llmtest.Text(long)}, Fault: &llmtest.Fault{After: 5, Reset: true}}, llmtest.Reply("ok")}, wantOut: "ok", requests: 2},
		{name: "stall", env: []string{"REINS_STREAM_IDLE_TIMEOUT_MS=300"}, turns: []llmtest.Turn{{Blocks: []llmtest.Block{llmtest.Text(long)}, Fault: &llmtest.Fault{After: 5, Stall: true}}, llmtest.Reply("ok")}, wantOut: "ok", requests: 2},
		{name: "malformed SSE", turns: []llmtest.Turn{{Blocks: []llmtest.Block{llmtest.Text(long)}, Fault: &llmtest.Fault{After: 5, Malformed: true}}, llmtest.Reply("ok")}, wantOut: "ok", requests: 2},
		{name: "max_tokens", turns: []llmtest.Turn{{Blocks: []llmtest.Block{llmtest.Text("par")}, StopReason: "max_tokens"}, llmtest.Reply("complete")}, wantOut: "complete", requests: 2},
		// The first prompt of a session is not summarised to make it fit
		// (the model would answer the summary): the API's refusal is the
		// answer. (Reactive compaction of earlier history is tested in
		// internal/compact.)
		{name: "first prompt too long", turns: []llmtest.Turn{llmtest.PromptTooLong()}, wantCode: 1, wantErr: "prompt is too long", requests: 1},
		{name: "bad request", turns: []llmtest.Turn{{Fault: &llmtest.Fault{Status: 400, ErrorType: "invalid_request_error", Message: "bad thing"}}}, wantCode: 1, wantErr: "bad thing", requests: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t, tc.turns...)
			sb := e2etest.NewSandbox(t, srv.URL)
			sb.Env = append(sb.Env, tc.env...)
			r := sb.Run(t, "", "-p", "go")
			if r.Code != tc.wantCode {
				t.Fatalf("code %d, want %d; stderr %q", r.Code, tc.wantCode, r.Stderr)
			}
			if tc.wantOut != "" && strings.TrimSpace(r.Stdout) != tc.wantOut {
				t.Errorf("stdout %q, want %q", r.Stdout, tc.wantOut)
			}
			if tc.wantErr != "" && (!strings.Contains(r.Stderr, tc.wantErr) || strings.Count(strings.TrimSpace(r.Stderr), "\n") != 0) {
				t.Errorf("stderr %q, want one line with %q", r.Stderr, tc.wantErr)
			}
			if n := len(srv.Requests()); n != tc.requests {
				t.Errorf("requests %d, want %d", n, tc.requests)
			}
			// The session is intact: the prompt is recorded.
			ts := sb.Transcripts(t)
			if len(ts) != 1 {
				t.Fatalf("transcripts %v", ts)
			}
			data, _ := os.ReadFile(ts[0])
			if !strings.Contains(string(data), `"go"`) {
				t.Errorf("prompt not in transcript")
			}
		})
	}
}

// The JSON result names the HTTP status of the API error that ended the
// turn, and is null when the turn succeeded, as Claude Code prints it.
func TestJSONResultAPIErrorStatus(t *testing.T) {
	for _, tc := range []struct {
		turn llmtest.Turn
		code int
		want any
	}{
		{llmtest.Turn{Fault: &llmtest.Fault{Status: 400, ErrorType: "invalid_request_error", Message: "bad thing"}}, 1, float64(400)},
		{llmtest.Reply("fine"), 0, nil},
	} {
		srv := server(t, tc.turn)
		sb := e2etest.NewSandbox(t, srv.URL)
		r := sb.Run(t, "", "-p", "go", "--output-format", "json")
		if r.Code != tc.code {
			t.Fatalf("code %d, want %d: %s", r.Code, tc.code, r.Stderr)
		}
		var res map[string]any
		if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil {
			t.Fatalf("result %q: %v", r.Stdout, err)
		}
		got, present := res["api_error_status"]
		if !present || got != tc.want {
			t.Errorf("api_error_status = %v (present %v), want %v", got, present, tc.want)
		}
	}
}

// A session whose transcript cannot be written still answers, and says
// that the conversation was not recorded: on stderr in text mode, as a
// notice line before the result in stream-json.
func TestUnrecordableSessionWarns(t *testing.T) {
	srv := server(t, llmtest.Reply("still answered"), llmtest.Reply("again"))
	sb := e2etest.NewSandbox(t, srv.URL)
	// A file where the projects folder belongs: no folder can be made
	// under it, whoever runs the test.
	if err := os.MkdirAll(sb.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.ConfigDir, "projects"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := sb.Run(t, "", "-p", "hello")
	if r.Code != 0 || r.Stdout != "still answered\n" {
		t.Fatalf("code %d stdout %q stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "could not be recorded") || !strings.Contains(r.Stderr, "projects") {
		t.Errorf("stderr %q: want a warning naming the folder that failed", r.Stderr)
	}
	r = sb.Run(t, "", "-p", "hello", "--output-format", "stream-json", "--verbose")
	if r.Code != 0 {
		t.Fatalf("stream-json: code %d stderr %q", r.Code, r.Stderr)
	}
	var notice, result int
	for i, l := range decodeLines(t, r.Stdout) {
		switch {
		case l["type"] == "system" && l["subtype"] == "notice" && strings.Contains(fmt.Sprint(l["message"]), "could not be recorded"):
			notice = i
		case l["type"] == "result":
			result = i
		}
	}
	if notice == 0 || notice > result {
		t.Errorf("notice line %d, result line %d: want the notice before the result\n%s", notice, result, r.Stdout)
	}
}
