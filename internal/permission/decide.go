package permission

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// Request is one tool call to decide on. NewRequest builds it from a
// tool's name and input; Resolve adds symlink-resolved paths.
type Request struct {
	Tool  string
	Input json.RawMessage
	// ReadOnly is the tool's own judgement of this input
	// (tool.Tool.IsReadOnly).
	ReadOnly bool
	// Command is the Bash command line.
	Command string
	// Dir is the folder the call's relative paths start from ("" means
	// the policy's working folder). For Bash it is the shell's current
	// folder, which cd may have moved.
	Dir string
	// Paths are the absolute paths the call reads, or writes when Edit is
	// set.
	Paths []string
	Edit  bool
	// Specifier is what content rules of other tools match: the agent
	// type for Agent, "domain:HOST" for WebFetch, the skill for Skill.
	Specifier string
	// Real maps a path (of Paths, or named in Command) to its
	// symlink-resolved form. Missing entries mean "same as given".
	Real map[string]string
	// Globs maps a glob named in Command (made absolute) to the paths it
	// matches on disk, at most maxGlobMatches of them.
	Globs map[string][]string
	// Trees maps a folder a Bash command reads whole (grep -r, rg, cp
	// -r) to a file under it that a Read deny or ask rule covers, so
	// that the command is judged as reading it (see ResolveTrees).
	Trees map[string]string
}

// Decision is the answer for one call.
type Decision struct {
	Behavior Behavior
	// Reason explains the decision in a sentence fit for the model and
	// the user.
	Reason string
	// Rule is the rule that decided, nil when the mode or the working
	// folders did.
	Rule *Rule
	// Mode is the mode the decision was made in.
	Mode Mode
	// BlockedPath is the path outside the working folders, when that is
	// why the call asks.
	BlockedPath string
	// Safety marks an ask that comes from a safety check (a protected
	// path, invisible characters): no mode, allow rule or hook settles
	// it, only an answer.
	Safety bool
	// DontAsk marks a deny that was an ask until dontAsk mode refused to
	// ask.
	DontAsk bool
	// Classify marks an ask that auto mode hands to its classifier
	// instead of the user: no ask rule and no safety check asked for
	// it. The gate asks the user when the classifier cannot decide.
	Classify bool
	// Suggestions are updates that would allow such calls from now on.
	Suggestions []Update
}

// Decide decides on a call. It is pure: it reads only p and r (Resolve
// the request first so that symlinks are seen). In auto mode a call that
// would ask is marked Classify unless an ask rule or a safety check (a
// protected path, invisible characters) asked for it.
func Decide(p *Policy, r Request) Decision {
	tool := canonical(r.Tool)
	d := decide(p, tool, r)
	d.Mode = p.Mode
	if d.Behavior == Ask && p.Mode == ModeDontAsk {
		d.Behavior, d.DontAsk = Deny, true
		d.Reason = "dontAsk mode denies anything that would need approval: " + d.Reason
		d.Suggestions = nil
	}
	if d.Behavior == Ask && p.Mode == ModeAuto && d.Rule == nil && !d.Safety {
		d.Classify = true
	}
	return d
}

func decide(p *Policy, tool string, r Request) Decision {
	if msg, ok := p.Refusals[tool]; ok {
		return Decision{Behavior: Deny, Reason: msg}
	}
	if rule := p.whole(Deny, tool); rule != nil {
		return byRule(Deny, rule, fmt.Sprintf("Permission to use %s is denied by the %s.", tool, rule.Describe()))
	}
	switch {
	case tool == "Bash":
		return decideBash(p, r)
	case len(r.Paths) > 0:
		return decidePaths(p, tool, r)
	}
	return decideOther(p, tool, r)
}

func byRule(b Behavior, rule *Rule, reason string) Decision {
	return Decision{Behavior: b, Rule: rule, Reason: reason}
}

// planExempt are tools plan mode lets run although they are not
// read-only: they manage the plan and the conversation, not the project.
var planExempt = map[string]bool{"ExitPlanMode": true, "EnterPlanMode": true, "TodoWrite": true, "AskUserQuestion": true, "Agent": true}

// askByDefault are tools that ask without an allow rule even when they
// change nothing locally: they reach the network or run a server's code.
func askByDefault(tool string) bool {
	return tool == "WebFetch" || tool == "WebSearch" || strings.HasPrefix(tool, "mcp__")
}

// decideOther handles tools without paths or commands.
func decideOther(p *Policy, tool string, r Request) Decision {
	for _, b := range []Behavior{Deny, Ask} {
		for _, rule := range p.rules(b, tool) {
			if rule.Content == "" || specifierMatches(rule.Content, r.Specifier) {
				return byRule(b, &rule, fmt.Sprintf("%s %s by the %s.", callName(tool, r), verb(b), rule.Describe()))
			}
		}
	}
	if p.Mode == ModePlan && !r.ReadOnly && !planExempt[tool] {
		return Decision{Behavior: Deny, Reason: fmt.Sprintf("Plan mode allows read-only tools only; %s changes things. Present the plan with ExitPlanMode first.", tool)}
	}
	for _, rule := range p.rules(Allow, tool) {
		if rule.Content == "" || specifierMatches(rule.Content, r.Specifier) {
			return byRule(Allow, &rule, fmt.Sprintf("%s is allowed by the %s.", callName(tool, r), rule.Describe()))
		}
	}
	switch {
	case p.Mode == ModeBypass:
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode allows it."}
	case tool == "Agent":
		return Decision{Behavior: Allow, Reason: "Agent is allowed: a sub-agent's own tool calls are checked one by one."}
	case r.ReadOnly && !askByDefault(tool):
		return Decision{Behavior: Allow, Reason: tool + " changes nothing and is allowed."}
	}
	d := Decision{Behavior: Ask, Reason: fmt.Sprintf("%s needs approval: no allow rule matches it.", callName(tool, r))}
	rule := tool
	if tool == "WebFetch" && r.Specifier != "" {
		rule = FormatRule(tool, r.Specifier)
	}
	d.Suggestions = []Update{{Type: UpdateAddRules, Rules: []string{rule}, Behavior: Allow, Destination: DestLocal}}
	return d
}

func verb(b Behavior) string {
	switch b {
	case Deny:
		return "is denied"
	case Ask:
		return "needs approval"
	}
	return "is allowed"
}

func callName(tool string, r Request) string {
	if r.Specifier != "" {
		return fmt.Sprintf("%s (%s)", tool, r.Specifier)
	}
	return tool
}

// specifierMatches matches a non-Bash, non-path rule specifier: exact,
// "*" wildcards, and for WebFetch "domain:*.example.com" covering
// subdomains (but not example.com itself).
func specifierMatches(content, spec string) bool {
	if spec == "" {
		return false
	}
	if content == spec {
		return true
	}
	if strings.ContainsAny(content, "*?[") {
		ok, err := path.Match(content, spec)
		return err == nil && ok
	}
	return false
}

// decidePaths handles tools that read or edit files.
func decidePaths(p *Policy, tool string, r Request) Decision {
	var worst Decision
	for _, abs := range r.Paths {
		forms := []string{abs}
		if real := r.Real[abs]; real != "" && real != abs {
			forms = append(forms, real)
		}
		for _, f := range forms {
			d := decidePath(p, tool, f, r.Edit)
			if worst.Behavior == "" || severity(d.Behavior) > severity(worst.Behavior) {
				worst = d
			}
		}
	}
	if worst.Behavior == Ask && worst.Suggestions == nil {
		worst.Suggestions = pathSuggestions(p, tool, r.Edit, worst.BlockedPath)
	}
	return worst
}

func severity(b Behavior) int {
	switch b {
	case Allow:
		return 1
	case Ask:
		return 2
	case Deny:
		return 3
	}
	return 0
}

// pathRules returns the content rules with behaviour b that apply to a
// path access by tool (Edit rules for edits, Read rules for reads, and
// the tool's own rules).
func (p *Policy) pathRules(b Behavior, tool string, edit bool) []Rule {
	var out []Rule
	for _, r := range p.rules(b, tool) {
		if r.Content != "" {
			out = append(out, r)
		}
	}
	family := "Read"
	if edit {
		family = "Edit"
	}
	if tool != family {
		for _, r := range p.rules(b, family) {
			if r.Content != "" && r.Tool == family {
				out = append(out, r)
			}
		}
	}
	return out
}

// firstPathRule returns the first rule that matches abs.
func (p *Policy) firstPathRule(rules []Rule, abs string) *Rule {
	for _, r := range rules {
		pp, err := compilePath(r.Content, r.Root, p.Cwd, p.Home)
		if err == nil && pp.match(abs) {
			return &r
		}
	}
	return nil
}

// decidePath decides one access to one absolute path.
func decidePath(p *Policy, tool, abs string, edit bool) Decision {
	what := "Reading " + abs
	if edit {
		what = "Editing " + abs
	}
	if rule := p.firstPathRule(p.pathRules(Deny, tool, edit), abs); rule != nil {
		return byRule(Deny, rule, fmt.Sprintf("%s is denied by the %s.", what, rule.Describe()))
	}
	if rule := p.whole(Ask, tool); rule != nil {
		return byRule(Ask, rule, fmt.Sprintf("%s needs approval: the %s covers every %s call.", what, rule.Describe(), tool))
	}
	if rule := p.firstPathRule(p.pathRules(Ask, tool, edit), abs); rule != nil {
		return byRule(Ask, rule, fmt.Sprintf("%s needs approval by the %s.", what, rule.Describe()))
	}
	if _, bad := suspicious(abs); bad {
		return Decision{Behavior: Ask, Safety: true, Reason: fmt.Sprintf("%s needs approval: the path holds invisible or control characters.", what)}
	}
	if edit {
		if prot, why := protectedPath(abs); prot {
			return Decision{Behavior: Ask, Safety: true, Reason: fmt.Sprintf("%s needs approval: %s.", what, why)}
		}
		if p.Mode == ModePlan {
			return Decision{Behavior: Deny, Reason: fmt.Sprintf("Plan mode allows read-only tools only; %s is not allowed. Present the plan with ExitPlanMode first.", strings.ToLower(what[:1])+what[1:])}
		}
	}
	if rule := p.whole(Allow, tool); rule != nil {
		return byRule(Allow, rule, fmt.Sprintf("%s is allowed by the %s.", what, rule.Describe()))
	}
	allows := p.pathRules(Allow, tool, edit)
	if !edit {
		allows = append(allows, p.pathRules(Allow, "Edit", true)...)
	}
	if rule := p.firstPathRule(allows, abs); rule != nil {
		return byRule(Allow, rule, fmt.Sprintf("%s is allowed by the %s.", what, rule.Describe()))
	}
	if p.Mode == ModeBypass {
		return Decision{Behavior: Allow, Reason: "bypassPermissions mode allows it."}
	}
	if !edit {
		if p.readable(abs) {
			return Decision{Behavior: Allow, Reason: what + " is inside the working folders."}
		}
		return Decision{Behavior: Ask, BlockedPath: abs, Reason: fmt.Sprintf("%s needs approval: it is outside the working folders (%s).", what, strings.Join(p.WorkDirs, ", "))}
	}
	if !p.inWorkDirs(abs) {
		return Decision{Behavior: Ask, BlockedPath: abs, Reason: fmt.Sprintf("%s needs approval: it is outside the working folders (%s).", what, strings.Join(p.WorkDirs, ", "))}
	}
	if p.Mode.acceptsEdits() {
		return Decision{Behavior: Allow, Reason: fmt.Sprintf("%s mode allows edits inside the working folders.", p.Mode)}
	}
	return Decision{Behavior: Ask, BlockedPath: abs, Reason: what + " needs approval."}
}

// pathSuggestions offers updates that would allow such accesses.
func pathSuggestions(p *Policy, tool string, edit bool, blocked string) []Update {
	if blocked == "" {
		return nil
	}
	dir := blocked
	if !p.inWorkDirs(blocked) {
		if !isDirLike(blocked) {
			dir = path.Dir(blocked)
		}
		return []Update{{Type: UpdateAddDirectories, Directories: []string{dir}, Destination: DestSession}}
	}
	if edit {
		return []Update{{Type: UpdateSetMode, Mode: ModeAcceptEdits, Destination: DestSession}}
	}
	return nil
}

func isDirLike(p string) bool { return strings.HasSuffix(p, "/") }
