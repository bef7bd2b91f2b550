package permission

import "encoding/json"

// RuleMatches reports whether a call of tool with input, made from dir,
// matches the permission rule text ("Bash(git *)", "Edit(*.ts)"), as a
// deny rule would: the "if" condition of a hook. For Bash it is enough
// that one subcommand matches. A rule that does not parse is an error.
func RuleMatches(text, tool string, input json.RawMessage, dir, home string) (bool, error) {
	rule, err := ruleFrom(text, Deny, "", "", dir)
	if err != nil {
		return false, err
	}
	p := &Policy{Mode: ModeDefault, Rules: []Rule{rule}, Cwd: dir, Home: home, WorkDirs: []string{dir}}
	r := NewRequest(tool, input, false, dir, home)
	r.Resolve(dir, home)
	d := Decide(p, r)
	return d.Behavior == Deny && d.Rule != nil, nil
}
