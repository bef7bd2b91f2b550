package permission

import (
	"errors"
	"strings"
	"testing"

	"reins/internal/settings"
)

// autoCase is a permTable row decided in auto mode, with whether the ask
// goes to the classifier.
type autoCase struct {
	permCase
	classifyAll bool
	classify    bool
}

var autoTable = []autoCase{
	{permCase: permCase{name: "command no rule allows goes to the classifier", cmd: "npm install", want: Ask}, classify: true},
	{permCase: permCase{name: "allow rule still allows", allow: []string{"Bash(npm install)"}, cmd: "npm install", want: Allow}},
	{permCase: permCase{name: "deny rule still denies", deny: []string{"Bash(rm:*)"}, cmd: "rm -rf build", want: Deny}},
	{permCase: permCase{name: "ask rule asks the user", ask: []string{"Bash(git push:*)"}, cmd: "git push", want: Ask}},
	{permCase: permCase{name: "whole-tool ask rule asks the user", ask: []string{"WebFetch"}, tool: "WebFetch", input: `{"url":"https://example.com","prompt":"x"}`, ro: true, want: Ask}},
	{permCase: permCase{name: "read-only command runs without the classifier", cmd: "git status", want: Allow}},
	{permCase: permCase{name: "file command inside is allowed as in acceptEdits", cmd: "mkdir -p build/out", want: Allow, why: "auto mode"}},
	{permCase: permCase{name: "edit inside is allowed as in acceptEdits", tool: "Edit", input: `{"file_path":"{proj}/src/main.go","old_string":"x","new_string":"y"}`, want: Allow, why: "auto mode"}},
	{permCase: permCase{name: "read inside is allowed", tool: "Read", input: `{"file_path":"{proj}/README.md"}`, ro: true, want: Allow}},
	{permCase: permCase{name: "edit of .git asks the user", tool: "Edit", input: `{"file_path":"{proj}/.git/config","old_string":"x","new_string":"y"}`, want: Ask}},
	{permCase: permCase{name: "write of .claude asks the user", tool: "Write", input: `{"file_path":"{proj}/.claude/settings.json","content":"{}"}`, want: Ask}},
	{permCase: permCase{name: "write of .vscode asks the user", tool: "Write", input: `{"file_path":"{proj}/.vscode/tasks.json","content":"{}"}`, want: Ask}},
	{permCase: permCase{name: "command writing .idea asks the user", cmd: "echo x > .idea/workspace.xml", want: Ask}},
	{permCase: permCase{name: "edit outside goes to the classifier", tool: "Edit", input: `{"file_path":"{out}/file","old_string":"x","new_string":"y"}`, want: Ask}, classify: true},
	{permCase: permCase{name: "web fetch goes to the classifier", tool: "WebFetch", input: `{"url":"https://example.com","prompt":"x"}`, ro: true, want: Ask}, classify: true},
	{permCase: permCase{name: "invisible characters ask the user", cmd: "ls\u200b -la", want: Ask}},
	{permCase: permCase{name: "classifyAllShell suspends Bash allow rules", allow: []string{"Bash(npm install)"}, cmd: "npm install", want: Ask}, classifyAll: true, classify: true},
	{permCase: permCase{name: "classifyAllShell sends read-only commands too", cmd: "git status", want: Ask}, classifyAll: true, classify: true},
	{permCase: permCase{name: "classifyAllShell keeps deny rules", deny: []string{"Bash(rm:*)"}, cmd: "rm -rf build", want: Deny}, classifyAll: true},
	{permCase: permCase{name: "classifyAllShell keeps other tools' allow rules", allow: []string{"WebFetch"}, tool: "WebFetch", input: `{"url":"https://example.com","prompt":"x"}`, ro: true, want: Allow}, classifyAll: true},
}

func TestAutoModeDecisionOrder(t *testing.T) {
	w := newWorld(t)
	for _, c := range autoTable {
		t.Run(c.name, func(t *testing.T) {
			c.mode = ModeAuto
			p := w.policy(c.permCase)
			p.ClassifyAllShell = c.classifyAll
			d := Decide(p, w.request(p, c.permCase))
			if d.Behavior != c.want || d.Classify != c.classify {
				t.Fatalf("Decide = %s classify=%v (%s), want %s classify=%v", d.Behavior, d.Classify, d.Reason, c.want, c.classify)
			}
			if c.why != "" && !strings.Contains(d.Reason, c.why) {
				t.Errorf("reason %q does not mention %q", d.Reason, c.why)
			}
		})
	}
}

func TestAutoModeOnlyInAutoMode(t *testing.T) {
	w := newWorld(t)
	c := permCase{cmd: "npm install", want: Ask}
	p := w.policy(c)
	p.ClassifyAllShell = true
	if d := Decide(p, w.request(p, c)); d.Classify {
		t.Errorf("default mode marked the ask for the classifier: %+v", d)
	}
}

func TestAutoModeDisabled(t *testing.T) {
	s := &settings.Settings{DisableAutoMode: true, DisableAutoModeFile: "/etc/managed.json"}
	if _, _, err := NewPolicy(Config{Settings: s, Mode: "auto", Cwd: "/p", Home: "/h"}); err == nil || !strings.Contains(err.Error(), "/etc/managed.json") {
		t.Errorf("--permission-mode auto with disableAutoMode: err = %v, want one naming the file", err)
	}
	s.DefaultMode = "auto"
	p, warns, err := NewPolicy(Config{Settings: s, Cwd: "/p", Home: "/h"})
	if err != nil || p.Mode != ModeDefault || len(warns) != 1 || !strings.Contains(warns[0].Message, "auto mode is disabled") {
		t.Fatalf("defaultMode auto with disableAutoMode: mode %v, warns %v, err %v", p.Mode, warns, err)
	}
	c := NewChecker(p, CheckerConfig{})
	if err := c.SetMode(ModeAuto); !errors.Is(err, ErrAutoDisabled) {
		t.Errorf("SetMode(auto) = %v, want ErrAutoDisabled", err)
	}
	if c.AutoAvailable() {
		t.Error("AutoAvailable with disableAutoMode")
	}
}

func TestManualAlias(t *testing.T) {
	p, _, err := NewPolicy(Config{Settings: &settings.Settings{DefaultMode: "manual"}, Cwd: "/p", Home: "/h"})
	if err != nil || p.Mode != ModeDefault {
		t.Fatalf("defaultMode manual: %v, %v", p, err)
	}
	c := NewChecker(p, CheckerConfig{})
	if err := c.SetMode("auto"); err != nil {
		t.Fatal(err)
	}
	if err := c.SetMode("manual"); err != nil || c.Mode() != ModeDefault {
		t.Errorf("SetMode(manual): mode %s, err %v", c.Mode(), err)
	}
	if got := Narrow(ModeAuto, "manual"); got != ModeDefault {
		t.Errorf("Narrow(auto, manual) = %s", got)
	}
}

func TestNarrowAuto(t *testing.T) {
	for _, c := range []struct{ parent, req, want Mode }{
		{ModeAuto, "", ModeAuto},
		{ModeAuto, ModeAcceptEdits, ModeAcceptEdits},
		{ModeAuto, ModeBypass, ModeAuto},
		{ModeDefault, ModeAuto, ModeDefault},
		{ModeAcceptEdits, ModeAuto, ModeAcceptEdits},
		{ModeBypass, ModeAuto, ModeAuto},
		{ModePlan, ModeAuto, ModePlan},
	} {
		if got := Narrow(c.parent, c.req); got != c.want {
			t.Errorf("Narrow(%s, %s) = %s, want %s", c.parent, c.req, got, c.want)
		}
	}
}
