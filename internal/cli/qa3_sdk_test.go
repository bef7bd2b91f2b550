package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --mcp-config takes several configurations after one flag, as Claude
// Code's does (`--mcp-config a.json b.json`): JSON objects and files that
// exist; anything else after them stays the prompt.
func TestQA3NormaliseArgsTakesSeveralMCPConfigs(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	b := filepath.Join(dir, "b.json")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte(`{"mcpServers":{}}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inline := `{"mcpServers":{"x":{"command":"x"}}}`
	cases := []struct{ in, want string }{
		{`--mcp-config|` + a + `|` + b + `|-p|hi`, `--mcp-config|` + a + `|--mcp-config=` + b + `|-p|hi`},
		{`-p|--mcp-config|` + a + `|` + inline + `|list the servers`, `-p|--mcp-config|` + a + `|--mcp-config=` + inline + `|list the servers`},
		{`--mcp-config|` + inline + `|fix the bug`, `--mcp-config|` + inline + `|fix the bug`},
		{`--mcp-config|` + a + `|` + filepath.Join(dir, "missing.json"), `--mcp-config|` + a + `|` + filepath.Join(dir, "missing.json")},
		{`--mcp-config|` + a + `|` + dir, `--mcp-config|` + a + `|` + dir},
	}
	for _, tc := range cases {
		got := strings.Join(normaliseArgs(strings.Split(tc.in, "|")), "|")
		if got != tc.want {
			t.Errorf("normaliseArgs(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// A bad --setting-sources value is a usage error that names the flag once.
func TestQA3BadSettingSourcesNamesTheFlagOnce(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("REINS_CONFIG_DIR", filepath.Join(home, ".reins"))
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(home, ".claude"))
	t.Setenv("ANTHROPIC_API_KEY", "sk-test")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	var stderr strings.Builder
	code := Main(context.Background(), []string{"-p", "hi", "--setting-sources", "user,team"}, strings.NewReader(""), io.Discard, &stderr)
	if code != 2 {
		t.Errorf("code %d, want 2", code)
	}
	if got := stderr.String(); strings.Count(got, "--setting-sources") != 1 || !strings.Contains(got, `"team"`) {
		t.Errorf("stderr %q: want the flag named once and the bad source", got)
	}
}

// A prompt on stdin larger than the limit is refused with an error that
// says so, instead of being cut at the limit and sent without a word.
func TestQA3OversizedStdinPromptIsRefused(t *testing.T) {
	const limit = 1 << 20
	o := &Options{Args: []string{"summarise"}}
	env := &Env{Stdin: strings.NewReader(strings.Repeat("x", limit+1))}
	if _, err := readPromptLimit(env, o, limit); err == nil || !strings.Contains(err.Error(), "larger than 1 MiB") {
		t.Errorf("err = %v, want the prompt refused as too large", err)
	}
	env.Stdin = strings.NewReader(strings.Repeat("x", limit))
	got, err := readPromptLimit(env, o, limit)
	if err != nil || len(got) != limit+len("\n\nsummarise") {
		t.Errorf("a prompt of exactly the limit: %d bytes, %v", len(got), err)
	}
}
