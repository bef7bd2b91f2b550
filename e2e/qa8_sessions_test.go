package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// reins -c whose newest transcript is damaged (no JSON line in it) stops
// and says which file and why, and which session comes before it, instead
// of going on with that older session as if it were the latest.
func TestQA8ContinueRefusesAnUnreadableLatestTranscript(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"))
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "question one", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	older := resultSessionID(t, r)
	damaged := filepath.Join(filepath.Dir(sb.Transcripts(t)[0]), "6f1e2d3c-4b5a-4968-8776-655443322110.jsonl")
	if err := os.WriteFile(damaged, []byte("\x00\x00\x00garbage\n\x00\x00more\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(damaged, later, later); err != nil {
		t.Fatal(err)
	}
	r = sb.Run(t, "", "-p", "-c", "question two")
	if r.Code == 0 {
		t.Fatalf("reins -c went on although the latest transcript is damaged; stdout %q stderr %q", r.Stdout, r.Stderr)
	}
	for _, want := range []string{damaged, "damaged", older} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q lacks %q", r.Stderr, want)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want none after the first run", n)
	}
	// A newest transcript that holds no message (a session quit before
	// anything was said) is no fault: -c continues the one before it.
	if err := os.WriteFile(damaged, []byte(`{"type":"last-prompt","lastPrompt":"x","sessionId":"6f1e2d3c-4b5a-4968-8776-655443322110"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(damaged, later, later)
	r = sb.Run(t, "", "-p", "-c", "question two")
	if r.Code != 0 {
		t.Fatalf("-c past a transcript without messages: code %d: %s", r.Code, r.Stderr)
	}
	if !carries(srv.Requests()[1], "question one") {
		t.Errorf("-c did not continue the session before: %q", historyTexts(srv.Requests()[1]))
	}
}

// requestWith returns the last captured request whose last user message
// contains text.
func requestWith(t *testing.T, srv *llmtest.Server, text string) *llmtest.Request {
	t.Helper()
	reqs := srv.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		if strings.Contains(reqs[i].LastUserText(), text) {
			return reqs[i]
		}
	}
	t.Fatalf("no request ends with %q", text)
	return nil
}

// Two reins continuing one session at once (reins --resume ID in two
// terminals): the second, started while the first waits on a tool call,
// says so and goes on from the last finished turn, not with the first
// one's prompt and its call answered by a made-up error; both record every
// line into the one transcript; a later --resume goes on with the branch
// recorded last, whole and alone.
func TestQA8TwoProcessesContinuingOneSessionKeepTheirBranchesApart(t *testing.T) {
	srv := server(t,
		llmtest.Turn{MatchText: "hello", Blocks: []llmtest.Block{llmtest.Text("hi there")}},
		llmtest.Turn{MatchText: "alpha", Blocks: []llmtest.Block{llmtest.ToolUse("toolu_A1", "Bash",
			map[string]any{"command": "while [ ! -f go ]; do sleep 0.05; done; echo A-out"})}},
		llmtest.Turn{MatchText: "A-out", Blocks: []llmtest.Block{llmtest.Text("alpha done")}},
		llmtest.Turn{MatchText: "beta", Blocks: []llmtest.Block{llmtest.Text("beta done")}},
		llmtest.Turn{MatchText: "gamma", Blocks: []llmtest.Block{llmtest.Text("gamma done")}},
		llmtest.Turn{MatchText: "forking", Blocks: []llmtest.Block{llmtest.Text("fork done")}, Side: true},
		llmtest.Turn{MatchText: "branching", Blocks: []llmtest.Block{llmtest.Text("branch done")}, Side: true},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	r := sb.Run(t, "", "-p", "hello", "--output-format", "json")
	if r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	id := resultSessionID(t, r)
	path := sb.Transcripts(t)[0]

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	first := sb.Command(t, ctx, "-p", "alpha", "--resume", id, "--allowedTools", "Bash")
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	for {
		data, _ := os.ReadFile(path)
		if bytes.Contains(data, []byte(`"toolu_A1"`)) {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the first reins never recorded its tool call: %s", firstErr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}

	r = sb.Run(t, "", "-p", "beta", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("second reins: code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "open in another reins") {
		t.Errorf("second reins said nothing of the other one: stderr %q", r.Stderr)
	}
	beta := requestWith(t, srv, "beta")
	if carries(beta, "alpha") || carries(beta, "No result was recorded") {
		t.Errorf("the second conversation took in the first one's running turn: %q", historyTexts(beta))
	}
	if !carries(beta, "hello") || !carries(beta, "hi there") {
		t.Errorf("the second conversation lacks the finished history: %q", historyTexts(beta))
	}

	// A fork of it is recorded apart, and told so.
	r = sb.Run(t, "", "-p", "forking", "--resume", id, "--fork-session")
	if r.Code != 0 {
		t.Fatalf("fork: code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "open in another reins") || strings.Contains(r.Stderr, "separate branches") {
		t.Errorf("the fork's note %q: want it told the session is open elsewhere, and not that it records into the same transcript", r.Stderr)
	}
	if fork := requestWith(t, srv, "forking"); carries(fork, "alpha") {
		t.Errorf("the fork took in the running turn: %q", historyTexts(fork))
	}

	// --resume-session-at: told too, from the message it names.
	var answer string
	data, _ := os.ReadFile(path)
	for _, line := range bytes.Split(data, []byte("\n")) {
		var e struct {
			Type, UUID string
		}
		if json.Unmarshal(line, &e) == nil && e.Type == "assistant" && bytes.Contains(line, []byte("hi there")) {
			answer = e.UUID
		}
	}
	r = sb.Run(t, "", "-p", "branching", "--resume", id, "--fork-session", "--resume-session-at", answer)
	if r.Code != 0 {
		t.Fatalf("--resume-session-at: code %d: %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "open in another reins") || !strings.Contains(r.Stderr, "message "+answer) {
		t.Errorf("--resume-session-at note %q: want it told the session is open elsewhere and goes on from message %s", r.Stderr, answer)
	}

	sb.Write(t, "go", "")
	if err := first.Wait(); err != nil {
		t.Fatalf("first reins: %v: %s", err, firstErr.String())
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if !json.Valid(line) {
			t.Errorf("line %d is not JSON: %q", i+1, line)
		}
	}
	for _, want := range []string{"alpha done", "beta done", "A-out"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the transcript lacks %q", want)
		}
	}

	r = sb.Run(t, "", "-p", "gamma", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("third reins: code %d: %s", r.Code, r.Stderr)
	}
	gamma := requestWith(t, srv, "gamma")
	for _, want := range []string{"hello", "alpha", "A-out", "alpha done"} {
		if !carries(gamma, want) {
			t.Errorf("the resumed branch lacks %q: %q", want, historyTexts(gamma))
		}
	}
	if carries(gamma, "beta") || carries(gamma, "No result was recorded") {
		t.Errorf("the resumed conversation mixes the branches: %q", historyTexts(gamma))
	}
}

// The error result that --continue records for a tool call a killed reins
// left unanswered carries the version field, as every other message line
// reins records and as Claude Code's lines do.
func TestQA8RepairedToolResultCarriesTheVersion(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"), llmtest.Reply("answer two"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "question one"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	path := sb.Transcripts(t)[0]
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var leaf, id, version string
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var e struct{ Type, UUID, SessionID, Version string }
		json.Unmarshal(line, &e)
		if e.Type == "assistant" {
			leaf, id, version = e.UUID, e.SessionID, e.Version
		}
	}
	// What a reins killed during a Bash call leaves last.
	call := `{"parentUuid":"` + leaf + `","isSidechain":false,"type":"assistant","uuid":"7c0ffee0-0000-4000-8000-000000000001","sessionId":"` + id +
		`","timestamp":"2026-11-30T10:00:00.000Z","cwd":"` + sb.Dir + `","version":"` + version +
		`","message":{"id":"msg_k","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_killed","name":"Bash","input":{"command":"sleep 60"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}}` + "\n"
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(call)
	f.Close()
	if r := sb.Run(t, "", "-p", "-c", "question two"); r.Code != 0 {
		t.Fatalf("continue: code %d: %s", r.Code, r.Stderr)
	}
	data, _ = os.ReadFile(path)
	found := false
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var e struct {
			Type, Version string
			Message       json.RawMessage
		}
		json.Unmarshal(line, &e)
		if e.Type != "user" && e.Type != "assistant" {
			continue
		}
		if bytes.Contains(e.Message, []byte("toolu_killed")) && e.Type == "user" {
			found = true
		}
		if e.Version == "" {
			t.Errorf("a %s line without version: %s", e.Type, line)
		}
	}
	if !found {
		t.Errorf("no result was recorded for the killed call")
	}
}

// reins sessions names on stderr a transcript it leaves out because it
// cannot be read, instead of the session vanishing from the list unsaid.
func TestQA8SessionsNamesATranscriptItCannotRead(t *testing.T) {
	srv := server(t, llmtest.Reply("answer one"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if r := sb.Run(t, "", "-p", "question one"); r.Code != 0 {
		t.Fatalf("first run: code %d: %s", r.Code, r.Stderr)
	}
	damaged := filepath.Join(filepath.Dir(sb.Transcripts(t)[0]), "6f1e2d3c-4b5a-4968-8776-655443322110.jsonl")
	if err := os.WriteFile(damaged, []byte("\x00\x00garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// An empty transcript is no fault and is not named.
	empty := filepath.Join(filepath.Dir(damaged), "7a1e2d3c-4b5a-4968-8776-655443322110.jsonl")
	os.WriteFile(empty, nil, 0o600)
	for _, args := range [][]string{{"sessions"}, {"sessions", "--all"}} {
		r := sb.Run(t, "", args...)
		if r.Code != 0 {
			t.Fatalf("%v: code %d: %s", args, r.Code, r.Stderr)
		}
		if !strings.Contains(r.Stdout, "question one") {
			t.Errorf("%v: the readable session is not listed: %q", args, r.Stdout)
		}
		if !strings.Contains(r.Stderr, damaged) || !strings.Contains(r.Stderr, "damaged") {
			t.Errorf("%v: stderr %q does not name the damaged transcript", args, r.Stderr)
		}
		if strings.Contains(r.Stderr, empty) {
			t.Errorf("%v: the empty transcript is named: %q", args, r.Stderr)
		}
	}
}

// After /clear in a stream-json (SDK) session the transcript left is no
// longer held: reins --resume of it says nothing of another reins, as
// while the conversation was still going on it does.
func TestQA8SDKClearLetsGoOfTheSessionLeft(t *testing.T) {
	srv := server(t, llmtest.Reply("one"), llmtest.Reply("side"), llmtest.Reply("later"))
	sb := e2etest.NewSandbox(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := sb.Command(t, ctx, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
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
	defer cmd.Wait()
	defer in.Close()
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 1<<20)
	send := func(text string) string {
		t.Helper()
		msg, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
		in.Write(append(msg, '\n'))
		for lines.Scan() {
			var v struct {
				Type      string `json:"type"`
				SessionID string `json:"session_id"`
			}
			json.Unmarshal(lines.Bytes(), &v)
			if v.Type == "result" {
				return v.SessionID
			}
		}
		t.Fatalf("no result for %q", text)
		return ""
	}
	id := send("hello")
	r := sb.Run(t, "", "-p", "side question", "--resume", id)
	if r.Code != 0 || !strings.Contains(r.Stderr, "open in another reins") {
		t.Errorf("resuming the session the SDK runs: code %d, stderr %q; want a note that it is open elsewhere", r.Code, r.Stderr)
	}
	if after := send("/clear"); after == id {
		t.Fatalf("/clear kept the session id %s", id)
	}
	r = sb.Run(t, "", "-p", "later question", "--resume", id)
	if r.Code != 0 {
		t.Fatalf("resume after /clear: code %d: %s", r.Code, r.Stderr)
	}
	if strings.Contains(r.Stderr, "open in another reins") {
		t.Errorf("after /clear the SDK session still holds the transcript it left: %q", r.Stderr)
	}
}
