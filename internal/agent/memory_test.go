package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMemoryBackgroundAndInitialPromptAreReadFromAgentFiles(t *testing.T) {
	d, problems, err := parseDefinition([]byte("---\nname: keeper\ndescription: Keeps.\nmemory: Project\nbackground: yes\ninitialPrompt: start here\n---\nBody\n"), "k.md", SourceProject)
	if err != nil || len(problems) > 0 {
		t.Fatalf("parse: %v %v", err, problems)
	}
	if d.Memory != MemoryProject || !d.Background || d.InitialPrompt != "start here" {
		t.Errorf("memory %q background %v initialPrompt %q", d.Memory, d.Background, d.InitialPrompt)
	}
	d, problems, err = parseDefinition([]byte("---\nname: k\ndescription: K.\nmemory: global\nbackground: sometimes\n---\nB\n"), "k.md", SourceProject)
	if err != nil || len(problems) != 2 || d.Memory != "" || d.Background {
		t.Errorf("bad values: err %v problems %v memory %q background %v", err, problems, d.Memory, d.Background)
	}
}

func TestMemoryBackgroundAndInitialPromptAreReadFromAgentsJSON(t *testing.T) {
	defs, err := ParseJSON([]byte(`{"k":{"description":"K.","prompt":"P","memory":"local","background":true,"initialPrompt":" go "}}`), SourceFlag)
	if err != nil || len(defs) != 1 {
		t.Fatal(defs, err)
	}
	if d := defs[0]; d.Memory != MemoryLocal || !d.Background || d.InitialPrompt != "go" {
		t.Errorf("%+v", d)
	}
	if _, err := ParseJSON([]byte(`{"k":{"description":"K.","prompt":"P","memory":"team"}}`), SourceFlag); err == nil || !strings.Contains(err.Error(), "memory") {
		t.Errorf("an unknown memory scope was accepted: %v", err)
	}
}

func TestMemoryDirFollowsItsScope(t *testing.T) {
	for _, c := range []struct{ name, scope, want string }{
		{"rev", MemoryUser, "/c/agent-memory/rev"},
		{"rev", MemoryProject, "/p/.claude/agent-memory/rev"},
		{"rev", MemoryLocal, "/p/.claude/agent-memory-local/rev"},
		{"plug:rev", MemoryUser, "/c/agent-memory/plug-rev"},
		{"../x", MemoryUser, "/c/agent-memory/-x"},
		{"rev", "", ""},
	} {
		d := &Definition{Name: c.name, Memory: c.scope}
		if got := d.MemoryDir("/c", "/p"); got != c.want {
			t.Errorf("%s/%s: %q, want %q", c.name, c.scope, got, c.want)
		}
	}
}

func TestMemoryPromptLoadsTheIndexWithinItsBounds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "mem")
	d := &Definition{Name: "k", Memory: MemoryUser}
	text, err := MemoryPrompt(d, dir)
	if err != nil || !strings.Contains(text, "MEMORY.md is empty") {
		t.Fatalf("empty memory: %q %v", text, err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("the folder was not made: %v", err)
	}
	// Long lines: the byte bound cuts before the line bound, at a line end.
	line := strings.Repeat("y", 199) + "\n"
	os.WriteFile(filepath.Join(dir, MemoryFile), []byte("HEAD\n"+strings.Repeat(line, 150)), 0o644)
	text, _ = MemoryPrompt(d, dir)
	if !strings.Contains(text, "HEAD") || !strings.Contains(text, "only its start is loaded") {
		t.Errorf("cut index lacks its head or the note")
	}
	i := strings.Index(text, "HEAD")
	j := strings.Index(text, "\n\n(MEMORY.md goes on")
	if j < 0 || j-i > MemoryMaxBytes {
		t.Errorf("loaded part is %d bytes", j-i)
	}
	for _, l := range strings.Split(text[i:j], "\n") {
		if l != "HEAD" && l != strings.Repeat("y", 199) {
			t.Errorf("a line was cut: %d bytes", len(l))
		}
	}
	// Exactly 200 short lines: loaded whole, no note.
	os.WriteFile(filepath.Join(dir, MemoryFile), []byte(strings.Repeat("z\n", MemoryMaxLines)), 0o644)
	if text, _ = MemoryPrompt(d, dir); strings.Contains(text, "only its start") || strings.Count(text, "z\n")+1 < MemoryMaxLines {
		t.Errorf("a 200-line index was cut")
	}
}
