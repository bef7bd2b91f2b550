package tui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xansi "github.com/charmbracelet/x/ansi"

	"reins/internal/tool"
)

func TestRenderDiffNumbersAndMarksLines(t *testing.T) {
	st := newStyles(false)
	hs := []hunk{{OldStart: 10, OldLines: 3, NewStart: 10, NewLines: 3, Lines: []string{" a", "-b", "+B", " c"}}}
	got := strings.Join(renderDiff(&st, hs, 40, 0), "\n")
	want := "10  a\n11 -b\n11 +B\n12  c"
	if got != want {
		t.Fatalf("diff:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderDiffCollapsesLongDiffs(t *testing.T) {
	st := newStyles(false)
	h := hunk{NewStart: 1}
	for i := 0; i < 30; i++ {
		h.Lines = append(h.Lines, "+x")
	}
	lines := renderDiff(&st, []hunk{h}, 40, 5)
	if len(lines) != 6 || lines[5] != "… +25 lines (ctrl+o to expand)" {
		t.Fatalf("lines = %q", lines)
	}
}

func TestRenderDiffColoursAdditionsAndRemovals(t *testing.T) {
	st := newStyles(true)
	lines := renderDiff(&st, []hunk{{OldStart: 1, NewStart: 1, Lines: []string{"-old", "+new"}}}, 40, 0)
	for i, l := range lines {
		if xansi.Strip(l) == l {
			t.Errorf("line %d is not coloured: %q", i, l)
		}
	}
}

func TestPatchFromResultReadsStructuredPatchOrFallsBackToInput(t *testing.T) {
	data := map[string]any{"filePath": "/a.go", "structuredPatch": []map[string]any{{"oldStart": 3, "oldLines": 1, "newStart": 3, "newLines": 1, "lines": []string{"-x", "+y"}}}}
	path, hs, _ := patchFromResult("Edit", nil, data)
	if path != "/a.go" || len(hs) != 1 || hs[0].OldStart != 3 {
		t.Fatalf("from data: %s %+v", path, hs)
	}
	in := json.RawMessage(`{"file_path":"/b.go","old_string":"one\ntwo","new_string":"one\n2"}`)
	path, hs, _ = patchFromResult("Edit", in, nil)
	add, del := countChanges(hs)
	if path != "/b.go" || add != 1 || del != 1 {
		t.Fatalf("from input: %s %+v", path, hs)
	}
	_, hs, created := patchFromResult("Write", nil, map[string]any{"filePath": "/c", "type": "create", "content": "a\nb\n"})
	if add, _ := countChanges(hs); !created || add != 2 {
		t.Fatalf("write create: %v %+v", created, hs)
	}
}

func TestParseUnifiedReadsHunks(t *testing.T) {
	text := "--- a\n+++ b\n@@ -1,2 +1,3 @@\n a\n-b\n+c\n+d\n@@ -9 +10,0 @@\n-z\n"
	hs := parseUnified(text)
	if len(hs) != 2 || hs[0].NewLines != 3 || len(hs[0].Lines) != 4 || hs[1].OldStart != 9 || hs[1].OldLines != 1 || hs[1].NewLines != 0 {
		t.Fatalf("hunks = %+v", hs)
	}
}

func FuzzParseUnified(f *testing.F) {
	f.Add("@@ -1,2 +1,3 @@\n a\n-b\n+c\n")
	f.Add("@@ -x +y @@\n")
	f.Add("@@")
	f.Add("@@ -1,-5 +2 @@\n+\n")
	f.Fuzz(func(t *testing.T, s string) {
		st := newStyles(false)
		hs := parseUnified(s)
		for _, h := range hs {
			if h.OldStart < 0 || h.OldLines < 0 || h.NewLines < 0 {
				t.Fatalf("negative range %+v", h)
			}
		}
		renderDiff(&st, hs, 30, 10)
	})
}

func TestCheckpointsRestoreFilesChangedSinceATurn(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("a0"), 0o600)
	cp := &Checkpoints{}
	g := cp.Gate(tool.AllowAll{})
	edit := func(path, content string) {
		in, _ := json.Marshal(map[string]string{"file_path": path})
		g.Before(context.Background(), &tool.Call{}, namedTool("Write"), in)
		os.WriteFile(path, []byte(content), 0o600)
	}
	cp.Begin("t1")
	edit(a, "a1")
	cp.Begin("t2")
	edit(a, "a2")
	edit(b, "b2") // created in t2
	cp.Begin("t3")
	edit(a, "a3")
	if got := cp.Since("t2"); len(got) != 2 {
		t.Fatalf("since t2 = %v", got)
	}
	restored, err := cp.Restore("t2")
	if err != nil || len(restored) != 2 {
		t.Fatalf("restore = %v, %v", restored, err)
	}
	if data, _ := os.ReadFile(a); string(data) != "a1" {
		t.Errorf("a = %q, want its content before t2", data)
	}
	if _, err := os.Stat(b); !os.IsNotExist(err) {
		t.Errorf("b, created in t2, still exists")
	}
	if got := cp.Since("t1"); len(got) != 1 {
		t.Errorf("t1's record should remain: %v", got)
	}
}

func TestCheckpointGateIgnoresDeniedAndReadOnlyCalls(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x")
	cp := &Checkpoints{}
	cp.Begin("t")
	in, _ := json.Marshal(map[string]string{"file_path": p})
	cp.Gate(denyAll{}).Before(context.Background(), &tool.Call{}, namedTool("Edit"), in)
	cp.Gate(tool.AllowAll{}).Before(context.Background(), &tool.Call{}, namedTool("Read"), in)
	if got := cp.Since("t"); len(got) != 0 {
		t.Fatalf("recorded %v", got)
	}
}

type namedTool string

func (n namedTool) Name() string                         { return string(n) }
func (namedTool) Description() string                    { return "" }
func (namedTool) InputSchema() json.RawMessage           { return nil }
func (namedTool) IsReadOnly(json.RawMessage) bool        { return false }
func (namedTool) IsConcurrencySafe(json.RawMessage) bool { return false }
func (namedTool) InterruptBehavior() tool.Interrupt      { return tool.Block }
func (namedTool) MaxResultChars() int                    { return 0 }
func (namedTool) Validate(context.Context, *tool.Call, json.RawMessage) error {
	return nil
}
func (namedTool) Call(context.Context, *tool.Call, json.RawMessage, func(tool.Progress)) (*tool.Result, error) {
	return nil, nil
}

type denyAll struct{}

func (denyAll) Before(context.Context, *tool.Call, tool.Tool, json.RawMessage) tool.Verdict {
	return tool.Verdict{Denied: true}
}
func (denyAll) After(context.Context, *tool.Call, tool.Tool, json.RawMessage, *tool.Result) {}
