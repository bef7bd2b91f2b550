package command

import "strings"

// AllowedBash is the default check for !`cmd` lines: it reports whether
// the permission rules in allowedTools let command run. It is strict on
// purpose, for use until the permission package supplies a real one:
//
//   - "Bash" or "Bash(*)" allows any command;
//   - otherwise a command holding ; & | < > ` $( or a newline is refused,
//     since a prefix rule must not let a second command ride along;
//   - "Bash(git status)" allows exactly that command;
//   - "Bash(git diff:*)" and "Bash(git diff *)" allow "git diff" alone or
//     followed by a space and anything;
//   - "Bash(npm run*)" allows any command starting with "npm run".
func AllowedBash(allowedTools []string, command string) bool {
	command = strings.TrimSpace(command)
	if command == "" {
		return false
	}
	compound := strings.ContainsAny(command, ";&|<>`\n") || strings.Contains(command, "$(")
	for _, rule := range allowedTools {
		rule = strings.TrimSpace(rule)
		if rule == "Bash" || rule == "Bash(*)" {
			return true
		}
		if compound || !strings.HasPrefix(rule, "Bash(") || !strings.HasSuffix(rule, ")") {
			continue
		}
		pat := strings.TrimSpace(rule[len("Bash(") : len(rule)-1])
		switch {
		case strings.HasSuffix(pat, ":*"):
			if p := strings.TrimSpace(strings.TrimSuffix(pat, ":*")); command == p || strings.HasPrefix(command, p+" ") {
				return true
			}
		case strings.HasSuffix(pat, " *"):
			if p := strings.TrimSpace(strings.TrimSuffix(pat, " *")); command == p || strings.HasPrefix(command, p+" ") {
				return true
			}
		case strings.HasSuffix(pat, "*"):
			if p := strings.TrimSuffix(pat, "*"); p != "" && strings.HasPrefix(command, p) {
				return true
			}
		default:
			if command == pat {
				return true
			}
		}
	}
	return false
}
