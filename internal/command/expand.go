package command

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"reins/internal/llm"
)

// Expander turns prompt commands into the text sent to the model. The
// zero value expands arguments, refuses !`cmd` lines (no Runner) and
// includes @files relative to the process's working folder.
type Expander struct {
	// Dir is the working folder: @file paths are relative to it and
	// !`cmd` lines run in it.
	Dir string
	// Home replaces a leading "~/" in @file paths ("" leaves it).
	Home string
	// Runner runs !`cmd` lines; nil refuses them with a note.
	Runner Runner
	// AllowBash decides whether a !`cmd` line may run under the command's
	// allowed-tools. nil means AllowedBash. The permission package plugs
	// its rule matcher in here.
	AllowBash func(allowedTools []string, command string) bool
	// AllowRead decides whether an @file (an absolute, cleaned path) may
	// be included. nil allows paths inside Dir and inside a skill's own
	// folder, symbolic links resolved.
	AllowRead func(path string) bool
	// DenyRead, when set, reports an @file (an absolute, cleaned path)
	// that a permission rule forbids reading: it is not included, wherever
	// it lies.
	DenyRead func(path string) bool
	// SessionID returns the id of the current session, which replaces
	// "${CLAUDE_SESSION_ID}" (nil leaves it).
	SessionID func() string
	// Resource, when set, includes an @ mention that names an MCP
	// resource (@server:uri) instead of a file: it returns the text to
	// include, or ok false for a mention that is not one.
	Resource func(ctx context.Context, mention string) (text string, ok bool)
	// OnExpand, when set, is told of every command expanded (a skill
	// whose hooks are to be registered, say).
	OnExpand func(c *Command)
	// MaxFileChars caps an included file (0: 50,000 bytes).
	MaxFileChars int
	// MaxOutputChars caps the output of a !`cmd` line (0: 30,000 bytes).
	MaxOutputChars int
}

// Expansion is a prompt command made ready for the model.
type Expansion struct {
	Command *Command
	// Args are the arguments as typed.
	Args string
	// Header records the invocation for the transcript and the screen:
	// <command-message>, <command-name> and <command-args> lines.
	Header string
	// Prompt is the expanded text for the model.
	Prompt string
	// AllowedTools and Model are the command's, for the turn.
	AllowedTools []string
	Model        string
}

// Content returns the user message content to send: the header, then the
// expanded prompt.
func (e *Expansion) Content() []llm.ContentBlock {
	return []llm.ContentBlock{llm.TextBlock(e.Header), llm.TextBlock(e.Prompt)}
}

// Header returns the lines that record an invocation of name with args.
func Header(name, args string) string {
	return "<command-message>" + name + "</command-message>\n" +
		"<command-name>/" + name + "</command-name>\n" +
		"<command-args>" + args + "</command-args>"
}

// Expand expands a prompt command with its arguments (see the package
// documentation for the exact rules). It fails only for a command that is
// not a prompt command, a failing Prompt function, or ctx ending; problems
// with !`cmd` lines and @files become notes in the text.
func (e *Expander) Expand(ctx context.Context, c *Command, args string) (*Expansion, error) {
	if c.Kind != Prompt {
		return nil, fmt.Errorf("expand /%s: it is a %s command, not a prompt command", c.Name, c.Kind)
	}
	args = strings.TrimSpace(args)
	x := &Expansion{
		Command:      c,
		Args:         args,
		Header:       Header(c.Name, args),
		AllowedTools: c.AllowedTools,
		Model:        c.Model,
	}
	if c.Prompt != nil {
		text, err := c.Prompt(ctx, args)
		if err != nil {
			return nil, fmt.Errorf("expand /%s: %w", c.Name, err)
		}
		x.Prompt = text
		return x, nil
	}
	text, err := e.template(ctx, c, args)
	if err != nil {
		return nil, fmt.Errorf("expand /%s: %w", c.Name, err)
	}
	x.Prompt = text
	if e.OnExpand != nil {
		e.OnExpand(c)
	}
	return x, nil
}

// expansion is the state of one template pass.
type expansion struct {
	e     *Expander
	c     *Command
	args  string
	words []string
	used  bool // an argument placeholder appeared
	files []string
	seen  map[string]bool
}

func (e *Expander) template(ctx context.Context, c *Command, args string) (string, error) {
	x := &expansion{e: e, c: c, args: args, words: SplitArgs(args), seen: map[string]bool{}}
	t := c.Body
	var out strings.Builder
	if c.Skill && c.Dir != "" {
		out.WriteString("This skill's folder is " + c.Dir + "; the files it mentions are there.\n\n")
	}
	for i := 0; i < len(t); {
		if n, s := x.placeholder(t[i:]); n > 0 {
			out.WriteString(s)
			i += n
			continue
		}
		if startsWord(t, i) && strings.HasPrefix(t[i:], "!`") {
			if j := strings.IndexAny(t[i+2:], "`\n"); j > 0 && t[i+2+j] == '`' {
				s, err := x.run(ctx, x.substitute(t[i+2:i+2+j]))
				if err != nil {
					return "", err
				}
				out.WriteString(s)
				i += j + 3
				continue
			}
		}
		if t[i] == '@' && startsWord(t, i) {
			if n, mention, path := x.mention(t[i:]); n > 0 {
				out.WriteString(mention)
				if path != "" && !x.seen[path] {
					x.seen[path] = true
					x.files = append(x.files, path)
				}
				i += n
				continue
			}
		}
		out.WriteByte(t[i])
		i++
	}
	if !x.used && args != "" {
		out.WriteString("\n\nARGUMENTS: " + args)
	}
	for _, p := range x.files {
		out.WriteString("\n\n")
		if e.Resource != nil {
			if text, ok := e.Resource(ctx, p); ok {
				out.WriteString(text)
				continue
			}
		}
		out.WriteString(e.include(c, p))
	}
	return out.String(), nil
}

// placeholder reports the length of an argument placeholder at the start
// of s and its replacement; 0 when there is none. Positions count from 0,
// as in Claude Code: $0 and $ARGUMENTS[0] are the first word. A position
// past the last word is left as written.
func (x *expansion) placeholder(s string) (int, string) {
	if len(s) < 2 || s[0] != '$' {
		return 0, ""
	}
	if strings.HasPrefix(s, "$ARGUMENTS") {
		x.used = true
		if n, i, ok := indexSuffix(s[len("$ARGUMENTS"):]); ok {
			return len("$ARGUMENTS") + n, x.word(i, s[:len("$ARGUMENTS")+n])
		}
		return len("$ARGUMENTS"), x.args
	}
	if s[1] >= '0' && s[1] <= '9' {
		n := 2
		for n < len(s) && s[n] >= '0' && s[n] <= '9' {
			n++
		}
		if n < len(s) && isWordByte(s[n]) {
			return 0, ""
		}
		x.used = true
		i, err := strconv.Atoi(s[1:n])
		if err != nil {
			i = -1
		}
		return n, x.word(i, s[:n])
	}
	if x.c.Skill && strings.HasPrefix(s, "${CLAUDE_SKILL_DIR}") {
		return len("${CLAUDE_SKILL_DIR}"), x.c.Dir
	}
	if x.e.SessionID != nil && strings.HasPrefix(s, "${CLAUDE_SESSION_ID}") {
		return len("${CLAUDE_SESSION_ID}"), x.e.SessionID()
	}
	best, at := 0, -1 // the longest declared name that matches
	for i, name := range x.c.ArgumentNames {
		n := 1 + len(name)
		if n > best && strings.HasPrefix(s[1:], name) && (n == len(s) || (!isWordByte(s[n]) && s[n] != '[')) {
			best, at = n, i
		}
	}
	if at >= 0 {
		x.used = true
		return best, x.word(at, s[:best])
	}
	return 0, ""
}

// indexSuffix reads "[N]" at the start of s: its length and N.
func indexSuffix(s string) (n, i int, ok bool) {
	if len(s) < 3 || s[0] != '[' {
		return 0, 0, false
	}
	end := strings.IndexByte(s, ']')
	if end < 2 {
		return 0, 0, false
	}
	i, err := strconv.Atoi(s[1:end])
	if err != nil || i < 0 || strings.IndexFunc(s[1:end], func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, 0, false
	}
	return end + 1, i, true
}

// word returns argument word i, or literal when there is no such word.
func (x *expansion) word(i int, literal string) string {
	if i >= 0 && i < len(x.words) {
		return x.words[i]
	}
	return literal
}

// isWordByte reports whether c continues a placeholder name.
func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// substitute replaces the placeholders in s.
func (x *expansion) substitute(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if n, r := x.placeholder(s[i:]); n > 0 {
			b.WriteString(r)
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// startsWord reports whether position i of t starts a word: it is the
// start of the text or follows white space or an opening parenthesis.
func startsWord(t string, i int) bool {
	return i == 0 || strings.IndexByte(" \t\n\r(", t[i-1]) >= 0
}

// mention reads an @file mention at the start of s ('@' then a path, or
// '@"a quoted path"'). It returns the bytes consumed, the text to write in
// its place (the mention with placeholders replaced) and the path; n is 0
// when s holds no mention.
func (x *expansion) mention(s string) (n int, text, path string) {
	if strings.HasPrefix(s, `@"`) {
		j := strings.IndexAny(s[2:], "\"\n")
		if j <= 0 || s[2+j] != '"' {
			return 0, "", ""
		}
		path = x.substitute(s[2 : 2+j])
		return j + 3, `@"` + path + `"`, path
	}
	end := 1
	for end < len(s) && strings.IndexByte(" \t\r\n", s[end]) < 0 {
		end++
	}
	tok := s[1:end]
	trimmed := strings.TrimRight(tok, ".,;:!?)]}'\"")
	if trimmed == "" {
		return 0, "", ""
	}
	path = x.substitute(trimmed)
	if path == "" {
		return 1 + len(trimmed), "@", ""
	}
	return 1 + len(trimmed), "@" + path, path
}

// run runs one !`cmd` line and returns what replaces it.
func (x *expansion) run(ctx context.Context, command string) (string, error) {
	e := x.e
	if strings.TrimSpace(command) == "" {
		return "[!`" + command + "` not run: the command is empty]", nil
	}
	allow := e.AllowBash
	if allow == nil {
		allow = AllowedBash
	}
	if !allow(x.c.AllowedTools, command) {
		return "[!`" + command + "` not run: neither this command's allowed-tools nor the permission rules allow it]", nil
	}
	if e.Runner == nil {
		return "[!`" + command + "` not run: shell commands are not available here]", nil
	}
	res, err := e.Runner.Run(ctx, e.Dir, command)
	if ctx.Err() != nil {
		return "", context.Cause(ctx)
	}
	if err != nil {
		msg := err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			msg = "it timed out"
		}
		return "[!`" + command + "` failed: " + msg + "]", nil
	}
	return formatOutput(res, e.MaxOutputChars), nil
}

// formatOutput is the text that replaces a !`cmd` line that ran: its
// standard output, then its standard error, each without trailing
// newlines, then "[exit status N]" when it failed.
func formatOutput(r RunResult, limit int) string {
	if limit <= 0 {
		limit = 30_000
	}
	var parts []string
	if s := strings.TrimRight(r.Stdout, "\n"); s != "" {
		parts = append(parts, s)
	}
	if s := strings.TrimRight(r.Stderr, "\n"); s != "" {
		parts = append(parts, s)
	}
	out := strings.Join(parts, "\n")
	if len(out) > limit {
		cut := validPrefix(out, limit)
		out = cut + fmt.Sprintf("\n[output truncated: %d more bytes]", len(out)-len(cut))
	}
	if r.ExitCode != 0 {
		if out != "" {
			out += "\n"
		}
		out += fmt.Sprintf("[exit status %d]", r.ExitCode)
	}
	return out
}

// validPrefix returns at most n bytes of s, not splitting a UTF-8 sequence.
func validPrefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
