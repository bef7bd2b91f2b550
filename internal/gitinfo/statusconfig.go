package gitinfo

// This file reads the configuration settings that change what `git
// status --short` prints, and refuses those the built-in status does
// not reproduce.

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
)

// configEntry is one "key = value" line of a configuration file.
type configEntry struct {
	section, subsection, key string // section and key lower-cased
	value                    string
	noValue                  bool // "key" alone, which reads as true
}

// parseConfigFile reads the entries of a git configuration file:
// "[section]", `[section "sub"]` and "[section.sub]" headers, keys with
// or without values, quoted parts, escapes, continuation lines and
// comments. What it cannot read is errUnsupported.
func parseConfigFile(data []byte) ([]configEntry, error) {
	s := strings.TrimPrefix(string(data), "\xef\xbb\xbf")
	var out []configEntry
	section, sub := "", ""
	line := 1
	bad := func(what string) ([]configEntry, error) {
		return nil, fmt.Errorf("line %d: %s: %w", line, what, errUnsupported)
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#' || c == ';':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '[':
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				return bad("section header has no end")
			}
			hdr := s[i+1 : i+end]
			i += end + 1
			name, quoted, hasSub := strings.Cut(hdr, " ")
			section, sub = strings.ToLower(name), ""
			if hasSub {
				q := strings.TrimSpace(quoted)
				if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' || strings.ContainsAny(q[1:len(q)-1], "\\\"\n") {
					return bad("section header " + hdr)
				}
				sub = q[1 : len(q)-1]
			} else if dot := strings.IndexByte(section, '.'); dot >= 0 {
				section, sub = section[:dot], section[dot+1:]
			}
			if section == "" || strings.ContainsAny(section, " \t\n\"") {
				return bad("section header " + hdr)
			}
		case isConfigKeyChar(c):
			if section == "" {
				return bad("key outside a section")
			}
			start := i
			for i < len(s) && isConfigKeyChar(s[i]) {
				i++
			}
			e := configEntry{section: section, subsection: sub, key: strings.ToLower(s[start:i])}
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i >= len(s) || s[i] == '\n' || s[i] == '\r' || s[i] == '#' || s[i] == ';' {
				e.noValue = true
				out = append(out, e)
				continue
			}
			if s[i] != '=' {
				return bad("key " + e.key + " has no '='")
			}
			v, n, lines, err := configValueText(s[i+1:])
			if err != nil {
				return bad(err.Error())
			}
			e.value = v
			i += 1 + n
			line += lines
			out = append(out, e)
		default:
			return bad(fmt.Sprintf("unexpected %q", c))
		}
	}
	return out, nil
}

func isConfigKeyChar(c byte) bool {
	return c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// configValueText reads a value up to its end of line: it drops
// surrounding blanks and comments outside quotes, removes the quotes
// and resolves the escapes. It returns the value, the bytes read (not
// the final newline) and the continuation lines crossed.
func configValueText(s string) (string, int, int, error) {
	var b strings.Builder
	quoted := false
	pendingSpace := ""
	lines := 0
	started := false
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			if quoted {
				return "", 0, 0, errors.New("newline inside quotes")
			}
			break
		}
		if !quoted && (c == '#' || c == ';') {
			for i < len(s) && s[i] != '\n' {
				i++
			}
			break
		}
		if !quoted && (c == ' ' || c == '\t' || c == '\r') {
			if started {
				pendingSpace += string(c)
			}
			continue
		}
		b.WriteString(pendingSpace)
		pendingSpace = ""
		started = true
		switch c {
		case '"':
			quoted = !quoted
		case '\\':
			i++
			if i >= len(s) {
				return "", 0, 0, errors.New("backslash at the end")
			}
			switch s[i] {
			case '\n':
				lines++
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case '\\', '"':
				b.WriteByte(s[i])
			default:
				return "", 0, 0, fmt.Errorf("unknown escape \\%c", s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	if quoted {
		return "", 0, 0, errors.New("unclosed quote")
	}
	return b.String(), i, lines, nil
}

// configBool reads a boolean value as git does; ok is false for a
// value that is not one.
func configBool(e configEntry) (v, ok bool) {
	if e.noValue {
		return true, true
	}
	switch strings.ToLower(e.value) {
	case "true", "yes", "on", "1":
		return true, true
	case "false", "no", "off", "0", "":
		return false, true
	}
	return false, false
}

// statusConfig is what the configuration says about the status.
type statusConfig struct {
	fileMode       bool   // core.fileMode: the executable bit counts
	trustCtime     bool   // core.trustctime
	crlf           bool   // core.autocrlf or core.eol set: files may be converted
	excludesFile   string // core.excludesFile as written; "" when unset
	attributesFile string // core.attributesFile as written; "" when unset
}

// readStatusConfig reads the configuration files git would read for the
// repository and checks each setting with statusSetting.
func readStatusConfig(r *repo, env []string) (statusConfig, error) {
	c := statusConfig{fileMode: true, trustCtime: true}
	for _, f := range configFiles(r, env) {
		data, err := readFile(f)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				continue
			}
			return c, fmt.Errorf("read git config %s: %w", f, err)
		}
		entries, err := parseConfigFile(data)
		if err != nil {
			return c, fmt.Errorf("read git config %s: %w", f, err)
		}
		for _, e := range entries {
			if err := c.apply(e); err != nil {
				return c, fmt.Errorf("read git config %s: %w", f, err)
			}
		}
	}
	return c, nil
}

// apply takes one setting into c, or refuses it.
func (c *statusConfig) apply(e configEntry) error {
	name := e.section + "." + e.key
	if e.subsection != "" {
		name = e.section + "." + e.subsection + "." + e.key
	}
	refuse := func() error {
		return fmt.Errorf("%s = %q: %w", name, e.value, errUnsupported)
	}
	b, isBool := configBool(e)
	if e.subsection != "" {
		if e.section == "core" || e.section == "status" || e.section == "index" || e.section == "extensions" {
			return refuse()
		}
		return nil
	}
	switch name {
	case "core.filemode":
		c.fileMode = b
	case "core.trustctime":
		c.trustCtime = b
	case "core.autocrlf":
		if strings.EqualFold(e.value, "input") {
			c.crlf = true
			return nil
		}
		c.crlf = b
	case "core.eol":
		c.crlf = true
	case "core.excludesfile":
		c.excludesFile = e.value
	case "core.attributesfile":
		c.attributesFile = e.value
	case "core.checkstat":
		if !strings.EqualFold(e.value, "default") {
			return refuse()
		}
		return nil
	case "core.ignorecase", "core.precomposeunicode", "core.bare", "core.ignorestat",
		"core.sparsecheckout", "core.sparsecheckoutcone", "index.sparse", "core.fsmonitor":
		if b && isBool {
			return refuse()
		}
		if !isBool && name == "core.fsmonitor" {
			return refuse() // a hook path
		}
	case "core.symlinks":
		if !b {
			return refuse()
		}
	case "core.worktree", "status.relativepaths", "status.renames", "status.renamelimit",
		"diff.renames", "diff.renamelimit":
		return refuse()
	case "status.showuntrackedfiles":
		if !strings.EqualFold(e.value, "normal") {
			return refuse()
		}
	case "color.status", "status.color":
		if strings.EqualFold(e.value, "always") {
			return refuse()
		}
	case "extensions.worktreeconfig", "extensions.objectformat", "extensions.refstorage",
		"extensions.partialclone", "extensions.preciousobjects", "extensions.noop":
		// openRepo vets the object format and ref storage.
	default:
		if e.section == "extensions" {
			return refuse()
		}
		if e.section == "status" {
			switch e.key {
			case "short", "branch", "aheadbehind", "showstash", "submodulesummary", "displaycommentprefix":
			default:
				return refuse()
			}
		}
	}
	if !isBool {
		switch name {
		case "core.filemode", "core.trustctime", "core.symlinks":
			return refuse()
		}
	}
	return nil
}

// expandConfigPath resolves a path setting as git does for the cases it
// reproduces: "~/" is the home folder, a relative path is relative to
// the work tree top (where git runs).
func expandConfigPath(p, top string, env []string) (string, error) {
	switch {
	case p == "":
		return "", nil
	case strings.HasPrefix(p, "~/"):
		home := envValue(env, "HOME")
		if home == "" {
			return "", fmt.Errorf("path %q without HOME: %w", p, errUnsupported)
		}
		return filepath.Join(home, p[2:]), nil
	case strings.HasPrefix(p, "~"), strings.HasPrefix(p, "%(prefix)"):
		return "", fmt.Errorf("path %q: %w", p, errUnsupported)
	case filepath.IsAbs(p):
		return p, nil
	}
	return filepath.Join(top, p), nil
}

// envValue returns the last value of key in env.
func envValue(env []string, key string) string {
	v := ""
	for _, kv := range env {
		if val, ok := strings.CutPrefix(kv, key+"="); ok {
			v = val
		}
	}
	return v
}

// xdgGitFile is $XDG_CONFIG_HOME/git/<name>, else ~/.config/git/<name>,
// or "" when neither variable is set.
func xdgGitFile(env []string, name string) string {
	if x := envValue(env, "XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", name)
	}
	if h := envValue(env, "HOME"); h != "" {
		return filepath.Join(h, ".config", "git", name)
	}
	return ""
}
