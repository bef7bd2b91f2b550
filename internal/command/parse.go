package command

import "strings"

// Invocation is a slash command as typed: "/review src/" has Name "review"
// and Args "src/".
type Invocation struct {
	Name string
	Args string
}

// Parse reads input as a slash command. ok is false when input is not
// one: it does not start with "/", or the word after the slash cannot be a
// command name (see ValidName), so "/usr/bin/x foo" and "//" are ordinary
// prompts. The name ends at the first white space; Args is the rest with
// surrounding white space removed.
func Parse(input string) (inv Invocation, ok bool) {
	if !strings.HasPrefix(input, "/") {
		return Invocation{}, false
	}
	rest := input[1:]
	name, args := rest, ""
	if i := strings.IndexAny(rest, " \t\r\n"); i >= 0 {
		name, args = rest[:i], rest[i:]
	}
	if !ValidName(name) {
		return Invocation{}, false
	}
	return Invocation{Name: name, Args: strings.TrimSpace(args)}, true
}
