package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"reins/internal/e2etest"
	"reins/internal/llm/llmtest"
)

// A command written for Claude Code counts positional arguments from 0
// ($0, $ARGUMENTS[1]), may name them in frontmatter, and may ask for the
// session id; reins expands it the same way.
func TestQA3CommandArgumentsExpandAsInClaudeCode(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/commands/migrate.md", "---\narguments: [component, from, to]\n---\n"+
		"Migrate $0 from $1 to $ARGUMENTS[2]; named: $component/$from/$to; missing: $3; session ${CLAUDE_SESSION_ID}.\n")
	r := sb.Run(t, "", "-p", "--session-id", "5f1d7a4e-2b7c-4c55-9a51-0c9b8e3d2a10", `/migrate "Search Bar" React Vue`)
	if r.Code != 0 {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	got := srv.Requests()[0].LastUserText()
	want := "Migrate Search Bar from React to Vue; named: Search Bar/React/Vue; missing: $3; session 5f1d7a4e-2b7c-4c55-9a51-0c9b8e3d2a10."
	if !strings.Contains(got, want) {
		t.Errorf("expanded prompt = %q, want it to contain %q", got, want)
	}
}

// Started in a sub-folder of a repository, reins finds the commands,
// skills and agents of the repository's .claude folder, as Claude Code
// does; a .claude folder above the repository is not read.
func TestQA3ExtensionsOfTheRepositoryRootLoadFromASubFolder(t *testing.T) {
	srv := server(t,
		llmtest.Reply("ok"),
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, "repo/.git/HEAD", "ref: refs/heads/main\n")
	sb.Write(t, "repo/.claude/commands/greet.md", "Say hello to $ARGUMENTS.\n")
	sb.Write(t, "repo/.claude/skills/deploy/SKILL.md", "---\ndescription: Deploy the service\n---\nDeploy.\n")
	sb.Write(t, "repo/.claude/agents/checker.md", "---\nname: checker\ndescription: Checks things\n---\nCheck.\n")
	sb.Write(t, ".claude/commands/outside.md", "---\ndescription: Outside the repository\n---\nNo.\n")
	sb.Write(t, "repo/backend/api/main.go", "package main\n")
	sb.Dir = filepath.Join(sb.Dir, "repo", "backend", "api")
	r := sb.Run(t, "", "-p", "/greet the team")
	if r.Code != 0 {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	req := srv.Requests()[0]
	all := strings.Join(historyTexts(req), "\n")
	for _, want := range []string{"Say hello to the team.", "- deploy: Deploy the service", "- checker: Checks things"} {
		if !strings.Contains(all, want) {
			t.Errorf("the request lacks %q", want)
		}
	}
	if strings.Contains(all, "outside") {
		t.Error("a command from above the repository was offered")
	}
}

// A skill run before /compact still guides the model after it: its text
// is given back with the summary, in the session resumed afterwards too.
func TestQA3SkillTextSurvivesCompaction(t *testing.T) {
	srv := server(t,
		llmtest.Reply("deployed"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>The user deployed to prod.</summary>")}, Side: true},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("all good")}, ResetPrefix: true},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/skills/deploy/SKILL.md", "---\ndescription: Deploy the service\n---\nDEPLOY-STEPS for $0: build, push, verify.\n")
	for _, args := range [][]string{{"-p", "/deploy prod"}, {"-p", "--continue", "/compact"}, {"-p", "--continue", "is it done?"}} {
		if r := sb.Run(t, "", args...); r.Code != 0 {
			t.Fatalf("%q: code %d stderr %q", args, r.Code, r.Stderr)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if !carries(reqs[2], "DEPLOY-STEPS for prod: build, push, verify.") {
		t.Errorf("the request after the compaction lacks the skill's text:\n%q", historyTexts(reqs[2]))
	}
}

// SessionStart hooks with the "compact" matcher run after a compaction,
// and what they print joins the conversation after the summary, as in
// Claude Code; the "startup" ones do not run again.
func TestQA3SessionStartHooksRunAfterCompaction(t *testing.T) {
	srv := server(t,
		llmtest.Reply("first"),
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("<summary>s</summary>")}, Side: true},
		llmtest.Turn{Blocks: []llmtest.Block{llmtest.Text("second")}, ResetPrefix: true},
	)
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"hooks":{"SessionStart":[`+
		`{"matcher":"compact","hooks":[{"type":"command","command":"grep -q '\"source\":\"compact\"' && echo REMEMBER-THE-FREEZE"}]},`+
		`{"matcher":"startup","hooks":[{"type":"command","command":"echo STARTUP-CONTEXT"}]}]}}`)
	for _, args := range [][]string{{"-p", "hello"}, {"-p", "--continue", "/compact"}, {"-p", "--continue", "and now?"}} {
		if r := sb.Run(t, "", args...); r.Code != 0 {
			t.Fatalf("%q: code %d stderr %q", args, r.Code, r.Stderr)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if !carries(reqs[2], "REMEMBER-THE-FREEZE") {
		t.Errorf("the compact hook's context is missing after the compaction:\n%q", historyTexts(reqs[2]))
	}
	if carries(reqs[0], "REMEMBER-THE-FREEZE") || !carries(reqs[0], "STARTUP-CONTEXT") {
		t.Errorf("the first request ran the wrong SessionStart hooks:\n%q", historyTexts(reqs[0]))
	}
}

// A sub-agent that reads a file in a sub-folder is given that folder's
// CLAUDE.md, as the main conversation is; each conversation is told once.
func TestQA3SubagentGetsTheMemoryOfFoldersItReads(t *testing.T) {
	srv := server(t)
	sb := e2etest.NewSandbox(t, srv.URL)
	f := sb.Write(t, "pkg/api/handler.go", "package api\n")
	sb.Write(t, "pkg/api/CLAUDE.md", "API-FOLDER-RULES: handlers return errors, never panic.\n")
	lastHas := func(s string) func(*llmtest.Request) bool {
		return func(r *llmtest.Request) bool { return strings.Contains(r.LastUserText(), s) }
	}
	srv.Add(
		llmtest.Turn{Match: lastHas("look at the handler"), Blocks: []llmtest.Block{llmtest.ToolUse("a1", "Agent",
			map[string]any{"subagent_type": "general-purpose", "description": "read handler", "prompt": "SUB-TASK read " + f})}},
		llmtest.Turn{Match: lastHas("SUB-TASK"), Blocks: []llmtest.Block{llmtest.ToolUse("r1", "Read", map[string]any{"file_path": f})}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return len(r.ToolResults()) > 0 && r.ToolResults()[0].ToolUseID == "r1" },
			Blocks: []llmtest.Block{llmtest.Text("sub-agent done")}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return len(r.ToolResults()) > 0 && r.ToolResults()[0].ToolUseID == "a1" },
			Blocks: []llmtest.Block{llmtest.ToolUse("r2", "Read", map[string]any{"file_path": f})}},
		llmtest.Turn{Match: func(r *llmtest.Request) bool { return len(r.ToolResults()) > 0 && r.ToolResults()[0].ToolUseID == "r2" },
			Blocks: []llmtest.Block{llmtest.Text("all done")}},
	)
	r := sb.Run(t, "", "-p", "look at the handler")
	if r.Code != 0 || strings.TrimSpace(r.Stdout) != "all done" {
		t.Fatalf("code %d out %q err %q", r.Code, r.Stdout, r.Stderr)
	}
	var sub, main *llmtest.Request
	for _, req := range srv.Requests() {
		if res := req.ToolResults(); len(res) > 0 && res[0].ToolUseID == "r1" {
			sub = req
		}
		if res := req.ToolResults(); len(res) > 0 && res[0].ToolUseID == "r2" {
			main = req
		}
	}
	if sub == nil || main == nil {
		t.Fatalf("missing requests: sub %v main %v", sub != nil, main != nil)
	}
	if !carries(sub, "API-FOLDER-RULES") {
		t.Errorf("the sub-agent was not given pkg/api/CLAUDE.md:\n%q", historyTexts(sub))
	}
	if !carries(main, "API-FOLDER-RULES") {
		t.Errorf("the main conversation was not given pkg/api/CLAUDE.md:\n%q", historyTexts(main))
	}
}

// A command's !`cmd` lines run under the session's permission rules with
// the command's allowed-tools added, as in Claude Code: a deny rule in
// the settings wins over allowed-tools, and an allow rule in the settings
// lets a line run in a command that lists no tools.
func TestQA3CommandShellLinesFollowTheSessionsPermissionRules(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"), llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions":{"deny":["Bash(rm:*)"],"allow":["Bash(echo:*)"]}}`)
	victim := sb.Write(t, "victim.txt", "keep me\n")
	sb.Write(t, ".claude/commands/clean.md", "---\nallowed-tools: Bash\n---\nCleaned: !`rm -f victim.txt`\n")
	sb.Write(t, ".claude/commands/hello.md", "Said: !`echo FROM-SETTINGS`\n")
	if r := sb.Run(t, "", "-p", "/clean"); r.Code != 0 {
		t.Fatalf("/clean: code %d stderr %q", r.Code, r.Stderr)
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("a !`rm` line ran although the settings deny Bash(rm:*): %v", err)
	}
	if got := srv.Requests()[0].LastUserText(); !strings.Contains(got, "not run") {
		t.Errorf("/clean expanded to %q; want a not-run note", got)
	}
	if r := sb.Run(t, "", "-p", "/hello"); r.Code != 0 {
		t.Fatalf("/hello: code %d stderr %q", r.Code, r.Stderr)
	}
	if got := srv.Requests()[1].LastUserText(); !strings.Contains(got, "Said: FROM-SETTINGS") {
		t.Errorf("/hello expanded to %q; want the echo's output", got)
	}
}

// An @file of a command is not included when the settings deny reading
// it: a command cannot carry a denied file to the model.
func TestQA3CommandFileMentionRespectsReadDenyRules(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	sb.Write(t, ".claude/settings.json", `{"permissions":{"deny":["Read(./.env)"]}}`)
	sb.Write(t, ".env", "API_TOKEN=SECRET-VALUE-123\n")
	sb.Write(t, "notes.md", "PUBLIC-NOTES\n")
	sb.Write(t, ".claude/commands/ctx.md", "Context: @.env and @notes.md\n")
	if r := sb.Run(t, "", "-p", "/ctx"); r.Code != 0 {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	got := srv.Requests()[0].LastUserText()
	if strings.Contains(got, "SECRET-VALUE-123") {
		t.Errorf("a file the settings deny reading reached the model: %q", got)
	}
	if !strings.Contains(got, "PUBLIC-NOTES") || !strings.Contains(got, "[@.env not included: a permission rule denies reading it]") {
		t.Errorf("expansion = %q", got)
	}
}

// A cloned repository's CLAUDE.md cannot import the user's private files:
// imports outside the project need the user's approval (Claude Code's
// hasClaudeMdExternalIncludesApproved for the folder), as in Claude Code.
func TestQA3ProjectMemoryCannotImportFilesOutsideTheProject(t *testing.T) {
	srv := server(t, llmtest.Reply("ok"), llmtest.Reply("ok"))
	sb := e2etest.NewSandbox(t, srv.URL)
	if err := os.MkdirAll(filepath.Join(sb.Home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.Home, ".ssh", "id_rsa"), []byte("PRIVATE-KEY-MATERIAL\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sb.Write(t, "CLAUDE.md", "Project rules. Also @~/.ssh/id_rsa and @docs/style.md\n")
	sb.Write(t, "docs/style.md", "STYLE-GUIDE\n")
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	req := srv.Requests()[0]
	if carries(req, "PRIVATE-KEY-MATERIAL") {
		t.Error("a project CLAUDE.md imported ~/.ssh/id_rsa without approval")
	}
	if !carries(req, "STYLE-GUIDE") {
		t.Error("an import inside the project was not loaded")
	}
	// Approved in Claude Code for this folder: the import loads.
	approved := `{"projects":{` + strconv.Quote(sb.Dir) + `:{"hasClaudeMdExternalIncludesApproved":true,"hasClaudeMdExternalIncludesWarningShown":true}}}`
	// The sandbox sets CLAUDE_CONFIG_DIR, where Claude Code keeps .claude.json.
	if err := os.MkdirAll(filepath.Join(sb.Home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sb.Home, ".claude", ".claude.json"), []byte(approved), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := sb.Run(t, "", "-p", "hi"); r.Code != 0 {
		t.Fatalf("code %d stderr %q", r.Code, r.Stderr)
	}
	if !carries(srv.Requests()[1], "PRIVATE-KEY-MATERIAL") {
		t.Error("an approved external import was not loaded")
	}
}
