package session

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestSlug(t *testing.T) {
	long := ""
	for i := range 30 {
		long += "/segment" + string(rune('0'+i/10)) + string(rune('0'+i%10))
	}
	for _, tc := range []struct{ in, want string }{
		{"/home/user/project", "-home-user-project"},
		{"/Users/dev/my_project.v2", "-Users-dev-my-project-v2"},
		{`C:\Users\dev`, "C--Users-dev"},
		{"/tmp/naïve", "-tmp-na-ve"},
		{"/tmp/😀", "-tmp---"}, // one character outside the BMP is two UTF-16 units
		{long, strings.ReplaceAll(long, "/", "-")[:200] + "-b0rrfl"},
	} {
		if got := Slug(tc.in); got != tc.want {
			t.Errorf("Slug(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestConfigDirAndPaths(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := ConfigDir(getenv, "/home/u"); got != "/home/u/.reins" {
		t.Errorf("ConfigDir = %s", got)
	}
	env[ConfigDirEnv] = "/custom"
	if got := ConfigDir(getenv, "/home/u"); got != "/custom" {
		t.Errorf("ConfigDir with %s = %s", ConfigDirEnv, got)
	}
	s := Store{Root: "/custom"}
	if got := s.TranscriptPath("/w/p", "abc"); got != "/custom/projects/-w-p/abc.jsonl" {
		t.Errorf("TranscriptPath = %s", got)
	}
	if got := s.ToolResultsDir("/w/p", "abc"); got != "/custom/projects/-w-p/abc/tool-results" {
		t.Errorf("ToolResultsDir = %s", got)
	}
}

// session records a small session in store s and sets its file time.
func session(t *testing.T, s Store, cwd, id string, mod time.Time, write func(r *recorder)) string {
	t.Helper()
	path := s.TranscriptPath(cwd, id)
	r := newRecorder(t, path, id)
	write(r)
	r.w.Close()
	if err := os.Chtimes(path, mod, mod); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestListLatestAndFind(t *testing.T) {
	s := Store{Root: t.TempDir()}
	cwd := "/work/proj"
	base := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	session(t, s, cwd, "aaaa-1111", base, func(r *recorder) {
		r.msg(user("<command-name>/init</command-name>"))
		r.msg(user("ignored meta"), func(e *Entry) { e.IsMeta = true })
		r.msg(user("  first\nreal   prompt  "))
		r.meta(&Entry{Type: TypeLastPrompt, LastPrompt: "later prompt"})
	})
	session(t, s, cwd, "aaaa-2222", base.Add(time.Hour), func(r *recorder) {
		r.msg(user("<command-name>/review</command-name>"))
		r.meta(&Entry{Type: TypeCustomTitle, CustomTitle: "Named session"})
	})
	session(t, s, cwd, "bbbb-3333", base.Add(2*time.Hour), func(r *recorder) {
		r.msg(user(strings.Repeat("long ", 100)))
		r.msg(result("t", "x", false))
	})
	// Not sessions to list: a sub-agent transcript and a file with no message.
	session(t, s, cwd, "side", base.Add(3*time.Hour), func(r *recorder) {
		r.msg(user("sub"), func(e *Entry) { e.IsSidechain = true })
	})
	session(t, s, cwd, "empty", base.Add(4*time.Hour), func(r *recorder) {
		r.meta(&Entry{Type: TypeSummary, Summary: "nothing"})
	})
	session(t, s, "/elsewhere", "cccc-4444", base.Add(5*time.Hour), func(r *recorder) { r.msg(user("other project")) })

	infos, err := s.List(cwd)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, i := range infos {
		ids = append(ids, i.ID)
	}
	if strings.Join(ids, ",") != "bbbb-3333,aaaa-2222,aaaa-1111" {
		t.Fatalf("List ids = %v; want newest first without side/empty", ids)
	}
	a1 := infos[2]
	if a1.FirstPrompt != "first real prompt" || a1.Title != "later prompt" || a1.Name() != "later prompt" {
		t.Errorf("aaaa-1111: FirstPrompt=%q Title=%q", a1.FirstPrompt, a1.Title)
	}
	if a1.Created.Year() != 2026 || a1.Created.Month() != 3 || a1.Size == 0 || a1.Cwd != "/home/user/project" {
		t.Errorf("aaaa-1111: Created=%v Size=%d Cwd=%s", a1.Created, a1.Size, a1.Cwd)
	}
	if a2 := infos[1]; a2.FirstPrompt != "/review" || a2.Title != "Named session" {
		t.Errorf("aaaa-2222: FirstPrompt=%q Title=%q; want the command name and the custom title", a2.FirstPrompt, a2.Title)
	}
	if b := infos[0]; !strings.HasSuffix(b.FirstPrompt, "…") || len([]rune(b.FirstPrompt)) != 200 {
		t.Errorf("long first prompt not cut to 200 characters: %d %q", len([]rune(b.FirstPrompt)), b.FirstPrompt)
	}

	latest, err := s.Latest(cwd)
	if err != nil || latest.ID != "bbbb-3333" {
		t.Errorf("Latest = %s, %v", latest.ID, err)
	}
	if _, err := s.Latest("/no/sessions/here"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Latest in an empty folder: %v; want ErrNotFound", err)
	}

	all, err := s.ListAll()
	if err != nil || len(all) != 4 || all[0].ID != "cccc-4444" {
		t.Errorf("ListAll = %d sessions (first %v), %v", len(all), all, err)
	}

	for _, tc := range []struct{ id, want, err string }{
		{"aaaa-2222", "aaaa-2222", ""},
		{"cccc-4444", "cccc-4444", ""}, // another project
		{"bbbb", "bbbb-3333", ""},      // unique prefix
		{"aaaa", "", "matches 2 sessions"},
		{"zzzz", "", "no such session"},
		{"../x", "", "not a session id"},
	} {
		info, err := s.Find(tc.id, cwd)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Find(%q) error = %v; want %q", tc.id, err, tc.err)
			}
		case err != nil || info.ID != tc.want:
			t.Errorf("Find(%q) = %q, %v; want %q", tc.id, info.ID, err, tc.want)
		}
	}
}

func TestFindSearchesAlsoFolders(t *testing.T) {
	claude := Store{Root: t.TempDir()}
	session(t, claude, "/p", "from-claude", time.Now(), func(r *recorder) { r.msg(user("hi")) })
	s := Store{Root: t.TempDir(), Also: []string{claude.Root}}
	info, err := s.Find("from-claude", "/p")
	if err != nil || info.Path != claude.TranscriptPath("/p", "from-claude") {
		t.Fatalf("Find in Also = %+v, %v", info, err)
	}
}

func TestForkCopiesUnderANewID(t *testing.T) {
	s := Store{Root: t.TempDir()}
	src := session(t, s, "/p", "old-id", time.Now(), func(r *recorder) {
		r.msg(user("q"))
		r.msg(assistant("m", toolUse("t1", "Bash", `{"command":"ls"}`)))
		r.msg(result("t1", "<persisted-output>big</persisted-output>", false))
		r.meta(&Entry{Type: TypeTodos, Todos: json.RawMessage(`[]`)})
	})
	appendRaw(t, src, `{"type":"user","uuid":"torn"`)
	lines := readLines(t, src)
	res := filepath.Join(s.ToolResultsDir("/p", "old-id"), "t1.txt")
	if err := os.MkdirAll(filepath.Dir(res), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(res, []byte("big"), 0o600); err != nil {
		t.Fatal(err)
	}

	dst, warns, err := s.Fork(src, "/q", "new-id")
	if err != nil {
		t.Fatal(err)
	}
	if dst != s.TranscriptPath("/q", "new-id") {
		t.Errorf("fork path = %s", dst)
	}
	if len(warns) != 1 || warns[0].Line != 5 {
		t.Errorf("warnings = %v; want the torn line 5", warns)
	}
	out := readLines(t, dst)
	if len(out) != len(lines)-1 {
		t.Fatalf("fork has %d lines, want %d", len(out), len(lines)-1)
	}
	for i, l := range out {
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatal(err)
		}
		if m["sessionId"] != "new-id" || m["version"] != "test" {
			t.Errorf("line %d: sessionId=%v version=%v", i+1, m["sessionId"], m["version"])
		}
	}
	a, b := mustLoad(t, src), mustLoad(t, dst)
	if len(a.Items) != len(b.Items) || a.Leaf != b.Leaf || b.SessionID != "new-id" {
		t.Fatalf("fork loads differently: %d/%d items, leaf %s/%s, id %s", len(a.Items), len(b.Items), a.Leaf, b.Leaf, b.SessionID)
	}
	for i := range a.Items {
		if apiBytes(t, a.Items[i].Message) != apiBytes(t, b.Items[i].Message) {
			t.Errorf("item %d differs in the fork", i)
		}
	}
	if got, err := os.ReadFile(filepath.Join(s.ToolResultsDir("/q", "new-id"), "t1.txt")); err != nil || string(got) != "big" {
		t.Errorf("persisted result not copied: %q, %v", got, err)
	}
	if _, _, err := s.Fork(src, "/q", "new-id"); err == nil {
		t.Error("forking onto an existing session succeeded")
	}
}

func TestCleanupRemovesOnlyOldSessions(t *testing.T) {
	s := Store{Root: t.TempDir()}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	old := now.Add(-31 * 24 * time.Hour)
	oldPath := session(t, s, "/p", "old", old, func(r *recorder) { r.msg(user("x")) })
	keptPath := session(t, s, "/p", "running", old, func(r *recorder) { r.msg(user("x")) })
	newPath := session(t, s, "/p", "new", now.Add(-time.Hour), func(r *recorder) { r.msg(user("x")) })
	onlyOld := session(t, s, "/gone", "ancient", old, func(r *recorder) { r.msg(user("x")) })
	// The old session's side files, and an orphan session folder.
	sideFile := filepath.Join(s.ToolResultsDir("/p", "old"), "a.txt")
	orphan := s.SessionDir("/p", "orphan")
	for _, d := range []string{filepath.Dir(sideFile), orphan} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(sideFile, []byte("x"), 0o600)
	os.Chtimes(orphan, old, old)
	os.Chtimes(s.ProjectDir("/gone"), old, old)
	// A running session's project folder, made a moment ago, before its
	// first line: it stays.
	fresh := s.ProjectDir("/fresh")
	if err := os.MkdirAll(fresh, 0o700); err != nil {
		t.Fatal(err)
	}

	rep, err := s.Cleanup(context.Background(), 0, now, func(id string) bool { return id == "running" })
	if err != nil || len(rep.Errs) != 0 {
		t.Fatalf("Cleanup: %v %v", err, rep.Errs)
	}
	if len(rep.Removed) != 2 {
		t.Errorf("Removed = %v; want old and ancient", rep.Removed)
	}
	for _, p := range []string{oldPath, onlyOld, s.SessionDir("/p", "old"), orphan, s.ProjectDir("/gone")} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s still exists", p)
		}
	}
	for _, p := range []string{keptPath, newPath, fresh} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}

func TestCleanupStopsOnCancel(t *testing.T) {
	s := Store{Root: t.TempDir()}
	old := time.Now().Add(-60 * 24 * time.Hour)
	path := session(t, s, "/p", "old", old, func(r *recorder) { r.msg(user("x")) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Cleanup(ctx, time.Hour, time.Now(), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Cleanup on a cancelled context = %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("transcript removed after cancel: %v", err)
	}
}

func TestStatOfMissingOrEmptyFile(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "e.jsonl")
	os.WriteFile(empty, nil, 0o600)
	for _, p := range []string{empty, filepath.Join(dir, "missing.jsonl")} {
		if _, ok := Stat(p); ok {
			t.Errorf("Stat(%s) ok", p)
		}
	}
}

// TestCleanupDueOncePerInterval: a complete pass makes the next one due
// only after CleanupInterval; a cancelled pass leaves it due.
func TestCleanupDueOncePerInterval(t *testing.T) {
	s := Store{Root: t.TempDir()}
	now := time.Now()
	if !s.CleanupDue(now) {
		t.Fatal("no pass ever: not due")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	session(t, s, "/p", "a", now, func(r *recorder) { r.msg(user("x")) })
	s.Cleanup(ctx, 0, now, nil)
	if !s.CleanupDue(now) {
		t.Error("due after a cancelled pass: want still due")
	}
	if _, err := s.Cleanup(context.Background(), 0, now, nil); err != nil {
		t.Fatal(err)
	}
	if s.CleanupDue(now.Add(time.Hour)) {
		t.Error("due an hour after a complete pass")
	}
	if !s.CleanupDue(now.Add(CleanupInterval)) {
		t.Error("not due a whole interval after the pass")
	}
}
