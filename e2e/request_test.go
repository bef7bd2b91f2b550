package e2e

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

var update = flag.Bool("update", false, "rewrite golden files")

// normalise replaces what changes from run to run (paths, ids, dates,
// the host) so the request can be compared with a golden file.
func normalise(body []byte, sb *e2etest.Sandbox) []byte {
	s := string(body)
	s = strings.ReplaceAll(s, sb.Dir, "<cwd>")
	s = strings.ReplaceAll(s, sb.Home, "<home>")
	for _, re := range []struct{ re, repl string }{
		{`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`, "<uuid>"},
		{`\d{4}-\d{2}-\d{2}`, "<date>"},
		{`(OS [Vv]ersion: )[^\\"]*`, "${1}<os>"},
		{`(Platform: )[^\\"]*`, "${1}<platform>"},
	} {
		s = regexp.MustCompile(re.re).ReplaceAllString(s, re.repl)
	}
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return []byte("normalised request is not JSON: " + err.Error() + "\n" + s)
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(v)
	return out.Bytes()
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"-c", "user.email=t@x", "-c", "user.name=t", "commit", "-qm", "first commit"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		// Fixed dates make the commit hash the same on every run.
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
}

// TestAssembledRequestMatchesGolden pins the whole first request: system
// blocks, the memory reminder, the tools, cache breakpoints and the
// headers that matter. Run with -update after an intended change.
func TestAssembledRequestMatchesGolden(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "CLAUDE.md", "# Project rules\n\nUse tabs. See @docs/style.md\n")
	sb.Write(t, "docs/style.md", "Wrap at 100 columns.\n")
	sb.Write(t, "main.go", "package main\n")
	gitInit(t, sb.Dir)
	sb.Env = append(sb.Env, "REINS_OVERRIDE_DATE=2026-01-02")
	r := sb.Run(t, "", "-p", "hello", "--model", "sonnet")
	if r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	req := srv.Requests()[0]
	if req.Header.Get("anthropic-version") != "2023-06-01" || req.Header.Get("x-api-key") != "sk-test" {
		t.Errorf("headers %v", req.Header)
	}
	if n := bytes.Count(req.Body, []byte(`"cache_control"`)); n < 2 || n > 4 {
		t.Errorf("%d cache breakpoints, want 2 to 4", n)
	}
	got := normalise(req.Body, sb)
	golden := filepath.Join("testdata", "first_request.golden.json")
	if *update {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("first request differs from %s (run go test ./e2e -run Golden -update after an intended change):\n%s", golden, firstDiff(string(want), string(got)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "line " + itoa(i+1) + ":\n- " + al[i] + "\n+ " + bl[i]
		}
	}
	return "lengths differ"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestConsecutiveRequestsShareAByteIdenticalPrefix(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	f := sb.Write(t, "a.txt", "alpha\n")
	srv.Add(llmtest.Calls(llmtest.ToolUse("toolu_1", "Read", map[string]any{"file_path": f})),
		llmtest.Calls(llmtest.ToolUse("toolu_2", "Read", map[string]any{"file_path": f})),
		llmtest.Reply("done"))
	if r := sb.Run(t, "", "-p", "read twice"); r.Code != 0 {
		t.Fatalf("code %d: %s", r.Code, r.Stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		a, b := reqs[i-1].Body, reqs[i].Body
		cut := bytes.Index(a, []byte(`"messages":`))
		if cut < 0 || !bytes.Equal(a[:cut], b[:cut]) {
			t.Errorf("request %d: system and tools changed", i)
		}
		// Every earlier message is repeated byte for byte, except the
		// cache marker that moves to the newest message.
		prev := strings.ReplaceAll(string(a[cut:]), `,"cache_control":{"type":"ephemeral"}`, "")
		next := strings.ReplaceAll(string(b[cut:]), `,"cache_control":{"type":"ephemeral"}`, "")
		prev = strings.TrimSuffix(prev[:strings.LastIndex(prev, `]`)], "]")
		if !strings.HasPrefix(next, prev[:len(prev)-2]) {
			t.Errorf("request %d does not extend the previous messages byte for byte", i)
		}
	}
}
