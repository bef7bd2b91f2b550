package prompt

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"reins/internal/gitinfo"
	"reins/internal/llm"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it)\n--- got ---\n%s", name, got)
	}
}

// render shows blocks as text, one marked section per block.
func render(blocks []llm.SystemBlock) string {
	var b strings.Builder
	for i, blk := range blocks {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("===== block " + string(rune('0'+i)))
		if blk.Cache {
			b.WriteString(" (cache breakpoint)")
		}
		b.WriteString(" =====\n" + blk.Text + "\n")
	}
	return b.String()
}

func sessionOptions() Options {
	return Options{
		Cwd: "/home/user/project", AddDirs: []string{"/home/user/lib"},
		Platform: "linux", OSVersion: "Linux 6.8.0", Date: "2026-11-29", Model: "claude-opus-4-5-20251101",
		Git: gitinfo.Snapshot{IsRepo: true, Branch: "feature", MainBranch: "main",
			Status: " M main.go", Commits: []string{"abc1234 Add main"}},
		Sections: []string{"# Output style\n\nExplain as you go.", "  "},
		Append:   "Always answer in French.",
		Context:  []KV{{"cacheBreaker", ""}, {"extra", "value"}},
	}
}

func TestBuildDefaultGolden(t *testing.T) {
	golden(t, "system-default.golden", render(Build(sessionOptions())))
}

func TestBuildCustomGolden(t *testing.T) {
	o := sessionOptions()
	o.Custom = "You are a test harness."
	golden(t, "system-custom.golden", render(Build(o)))
}

func TestBuildCustomAlone(t *testing.T) {
	blocks := Build(Options{Custom: "Only this."})
	if len(blocks) != 1 || blocks[0].Text != "Only this." || !blocks[0].Cache {
		t.Errorf("Build with only a custom prompt = %+v", blocks)
	}
}

func TestEnvironmentIsTheDefaultPromptsSection(t *testing.T) {
	o := sessionOptions()
	env := Environment(o)
	if env == "" || !strings.Contains(env, "/home/user/project") {
		t.Fatalf("Environment = %q", env)
	}
	if tail := Build(o)[1].Text; !strings.HasPrefix(tail, env+"\n\n") {
		t.Errorf("the default prompt's session block does not start with Environment's text:\n%s", tail)
	}
}

func TestBuildMarksPrefixAndEnd(t *testing.T) {
	blocks := Build(sessionOptions())
	if len(blocks) != 2 || !blocks[0].Cache || !blocks[1].Cache {
		t.Fatalf("want two blocks, both cache breakpoints; got %+v", blocks)
	}
}

func TestStaticPrefixIsTheSameForEverySession(t *testing.T) {
	a := Build(sessionOptions())
	o := Options{Cwd: "/elsewhere", Platform: "darwin", Date: "2030-01-01", Model: "claude-haiku-4-5"}
	b := Build(o)
	if a[0].Text != b[0].Text || a[0].Text != Static() {
		t.Error("the static prefix depends on the session")
	}
	for _, s := range []string{"/home/user/project", "2026-11-29", "claude-opus", "linux"} {
		if strings.Contains(a[0].Text, s) {
			t.Errorf("static prefix contains session value %q", s)
		}
	}
}

func TestBuildIsByteStableAcrossTurns(t *testing.T) {
	o := sessionOptions()
	first := render(Build(o))
	time.Sleep(time.Millisecond)
	if second := render(Build(o)); second != first {
		t.Error("two builds from the same options differ")
	}
}

func TestSystemContext(t *testing.T) {
	for _, tc := range []struct {
		name  string
		git   gitinfo.Snapshot
		extra []KV
		want  string
	}{
		{"no repo, nothing else", gitinfo.Snapshot{}, nil, ""},
		{"no repo, extra", gitinfo.Snapshot{}, []KV{{"a", "1"}, {"b", "2"}}, "a: 1\nb: 2"},
		{"empty values dropped", gitinfo.Snapshot{}, []KV{{"a", ""}, {"b", "2"}}, "b: 2"},
		{"repo first", gitinfo.Snapshot{IsRepo: true, Branch: "x"}, []KV{{"a", "1"}},
			"gitStatus: " + gitinfo.Snapshot{IsRepo: true, Branch: "x"}.Text() + "\na: 1"},
	} {
		if got := SystemContext(tc.git, tc.extra); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSessionDate(t *testing.T) {
	now := time.Date(2026, 2, 3, 23, 59, 0, 0, time.Local)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := SessionDate(now, getenv); got != "2026-02-03" {
		t.Errorf("SessionDate = %s", got)
	}
	env["CLAUDE_CODE_OVERRIDE_DATE"] = "2020-01-01"
	if got := SessionDate(now, getenv); got != "2020-01-01" {
		t.Errorf("with CLAUDE_CODE_OVERRIDE_DATE: %s", got)
	}
	env[OverrideDateEnv] = "1999-12-31"
	if got := SessionDate(now, getenv); got != "1999-12-31" {
		t.Errorf("with %s: %s", OverrideDateEnv, got)
	}
}

func TestKnowledgeCutoff(t *testing.T) {
	for model, want := range map[string]string{
		"claude-opus-4-6-20251001": "May 2025",
		"claude-sonnet-4-20250514": "January 2025",
		"claude-sonnet-4-6":        "August 2025",
		"claude-haiku-4-5":         "February 2025",
		"claude-opus-4-5":          "May 2025",
		"claude-opus-5-5":          "",
		"gpt-5":                    "",
	} {
		if got := KnowledgeCutoff(model); got != want {
			t.Errorf("KnowledgeCutoff(%s) = %q, want %q", model, got, want)
		}
	}
}

func TestHostNamesThePlatform(t *testing.T) {
	p, v := Host(t.Context())
	if p == "" {
		t.Error("no platform")
	}
	if p == "linux" && !strings.HasPrefix(v, "Linux ") {
		t.Errorf("OS version on linux = %q", v)
	}
}
