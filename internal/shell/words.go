package shell

import (
	"strconv"
	"strings"
)

// unquotedLit removes backslash escapes from an unquoted literal and
// reports whether it holds unescaped glob or brace-expansion characters.
func unquotedLit(v string) (string, bool) {
	if !strings.ContainsAny(v, `\*?[{`) {
		return v, false
	}
	var sb strings.Builder
	pattern := false
	braceOpen := -1
	for i := 0; i < len(v); i++ {
		ch := v[i]
		switch {
		case ch == '\\' && i+1 < len(v):
			i++
			if v[i] != '\n' {
				sb.WriteByte(v[i])
			}
			continue
		case ch == '*' || ch == '?' || ch == '[':
			pattern = true
		case ch == '{':
			braceOpen = sb.Len()
		case ch == '}' && braceOpen >= 0:
			inner := sb.String()[braceOpen:]
			if strings.Contains(inner, ",") || strings.Contains(inner, "..") {
				pattern = true
			}
			braceOpen = -1
		}
		sb.WriteByte(ch)
	}
	return sb.String(), pattern
}

// dquotedLit removes the escapes that are special inside double quotes.
func dquotedLit(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				sb.WriteByte(v[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		sb.WriteByte(v[i])
	}
	return sb.String()
}

// ansiC decodes the body of a $'…' string. ok is false for escapes it
// does not know.
func ansiC(v string) (string, bool) {
	var sb strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' || i+1 >= len(v) {
			sb.WriteByte(v[i])
			continue
		}
		i++
		switch c := v[i]; c {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\', '\'', '"', '?':
			sb.WriteByte(c)
		case 'x', 'u', 'U', '0', '1', '2', '3', '4', '5', '6', '7':
			base, max, j := 16, 2, i+1
			switch {
			case c == 'u':
				max = 4
			case c == 'U':
				max = 8
			case c >= '0' && c <= '7':
				base, max, j = 8, 3, i
			}
			end := j
			for end < len(v) && end-j < max && isDigitIn(v[end], base) {
				end++
			}
			if end == j {
				return sb.String(), false
			}
			n, err := strconv.ParseUint(v[j:end], base, 32)
			if err != nil {
				return sb.String(), false
			}
			if c == 'u' || c == 'U' {
				sb.WriteRune(rune(n))
			} else {
				sb.WriteByte(byte(n))
			}
			i = end - 1
		default:
			return sb.String(), false
		}
	}
	return sb.String(), true
}

func isDigitIn(b byte, base int) bool {
	switch {
	case b >= '0' && b <= '7':
		return true
	case b == '8' || b == '9':
		return base == 16
	case b >= 'a' && b <= 'f', b >= 'A' && b <= 'F':
		return base == 16
	}
	return false
}

// baseProgram maps /usr/bin/ls to ls for the system folders (/bin,
// /usr/bin, /usr/local/bin, /sbin, /usr/sbin); ./ls and other paths stay
// as they are, since a local file of a known name may be anything.
func baseProgram(v string) string {
	i := strings.LastIndexByte(v, '/')
	if i < 0 {
		return v
	}
	switch v[:i+1] {
	case "/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/":
		return v[i+1:]
	}
	return v
}

// validName reports whether s is a shell variable name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9' {
			continue
		}
		return false
	}
	return true
}

// unwrap looks through transparent wrappers at the start of c.Words. It
// records them in c.Wrappers, moves env's assignments to c.Assigns and
// returns the index of the program word (len(c.Words) when a wrapper is
// used alone).
func unwrap(c *Command) int {
	words := c.Words
	i := 0
	for i < len(words) {
		wd := words[i]
		if !wd.Static {
			return i
		}
		name := baseProgram(wd.Value)
		next := i + 1
		switch name {
		case "timeout":
			next = skipOptions(words, next, " -s -k --signal --kill-after ")
			if next < len(words) {
				next++ // the duration
			}
		case "nice":
			next = skipOptions(words, next, " -n --adjustment ")
		case "nohup", "builtin":
			next = skipOptions(words, next, " ")
		case "stdbuf":
			next = skipOptions(words, next, " -i -o -e --input --output --error ")
		case "exec":
			next = skipOptions(words, next, " -a ")
		case "command":
			if next < len(words) && words[next].Static && (words[next].Value == "-v" || words[next].Value == "-V") {
				return i // a lookup, not a run
			}
			next = skipOptions(words, next, " ")
		case "time":
			if hasAny(words[next:], "-o", "--output", "-a", "--append") {
				return i // time writing its report to a file is a writer
			}
			next = skipOptions(words, next, " -f --format -o --output ")
		case "env":
			j, ok := envOptions(words, next)
			if !ok {
				return i
			}
			for j < len(words) {
				as, ok := envAssign(words[j])
				if !ok {
					break
				}
				c.Assigns = append(c.Assigns, as)
				j++
			}
			next = j
		default:
			return i
		}
		c.Wrappers = append(c.Wrappers, name)
		i = next
	}
	return i
}

func hasAny(words []Word, flags ...string) bool {
	for _, w := range words {
		for _, f := range flags {
			if w.Value == f || strings.HasPrefix(w.Value, f+"=") {
				return true
			}
		}
		if !strings.HasPrefix(w.Value, "-") {
			return false
		}
	}
	return false
}

// skipOptions skips option words from i; valued lists, space-separated
// and space-surrounded, the options that take a separate value.
func skipOptions(words []Word, i int, valued string) int {
	for i < len(words) {
		w := words[i]
		if !w.Static {
			return i
		}
		v := w.Value
		switch {
		case v == "--":
			return i + 1
		case v == "-" || !strings.HasPrefix(v, "-"):
			return i
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v, "=")
			i++
			if !hasVal && strings.Contains(valued, " "+name+" ") {
				i++
			}
		default:
			i++
			if len(v) == 2 && strings.Contains(valued, " "+v+" ") {
				i++
			}
		}
	}
	return i
}

// envOptions skips env's options; ok is false for options that make env
// run something we cannot follow (-S splits a string into a command).
func envOptions(words []Word, i int) (int, bool) {
	for i < len(words) {
		w := words[i]
		if !w.Static {
			return i, true
		}
		v := w.Value
		switch {
		case v == "--":
			return i + 1, true
		case v == "-":
			return i + 1, true // same as -i
		case !strings.HasPrefix(v, "-"):
			return i, true
		case v == "-S" || strings.HasPrefix(v, "--split-string") || strings.HasPrefix(v, "-S"):
			return i, false
		case v == "-u" || v == "-C" || v == "--unset" || v == "--chdir":
			i += 2
		default:
			i++
		}
	}
	return i, true
}

func envAssign(w Word) (Assign, bool) {
	name, rest, ok := strings.Cut(w.Raw, "=")
	if !ok || !validName(name) {
		return Assign{}, false
	}
	val := Word{Raw: rest, Static: w.Static}
	if w.Static {
		val.Value = strings.TrimPrefix(w.Value, name+"=")
	}
	return Assign{Name: name, Value: val, Raw: w.Raw}, true
}
