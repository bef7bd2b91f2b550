package tui

import (
	"strings"
	"unicode/utf8"

	xansi "github.com/charmbracelet/x/ansi"
)

// Colours in command output.
//
// A command's output keeps its colours on screen (ls --color, test
// runners, compilers), as in Claude Code; only the model's copy is plain.
// Of the escape sequences, only SGR ("CSI ... m": colours, bold, italic,
// underline, reverse...) is kept, and of SGR not blinking and concealed
// text. Everything else (cursor movement, erasing, scrolling regions,
// titles, hyperlinks, terminal queries) is dropped, with the other control
// characters but newline and tab.
//
// The conversation is printed a line at a time, and a collapsed result
// shows only its first lines, so no line may leave a colour open for what
// follows it: each line that ends with attributes on ends with a reset,
// and the next line starts by setting them again.

// plainText is screenText without colours, for text shown in the UI's
// own styles (a hook's message, a progress line).
func plainText(s string) string { return xansi.Strip(screenText(s)) }

// sgrReset turns every attribute off.
const sgrReset = "\x1b[0m"

// keepColours returns s without escape sequences other than SGR and
// without control characters other than newline and tab, every line
// closing the attributes it leaves on.
func keepColours(s string) string {
	if s == "" {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var active []string // SGR sequences in force since the last reset
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			seq, n := escapeAt(s, i)
			i += n
			if seq == "" {
				continue
			}
			b.WriteString(seq)
			if resets(seq) {
				active = active[:0]
				if !onlyReset(seq) {
					active = append(active, seq)
				}
			} else {
				active = append(active, seq)
			}
		case c == '\n':
			if len(active) > 0 {
				b.WriteString(sgrReset)
				b.WriteByte('\n')
				for _, a := range active {
					b.WriteString(a)
				}
			} else {
				b.WriteByte('\n')
			}
			i++
		case c == '\t':
			b.WriteByte(c)
			i++
		case c < 0x20 || c == 0x7f:
			i++
		case c < 0x80:
			b.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				b.WriteRune(utf8.RuneError)
			case r >= 0x80 && r < 0xa0: // C1 controls
			default:
				b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
	if len(active) > 0 {
		b.WriteString(sgrReset)
	}
	return b.String()
}

// escapeAt reads the escape sequence starting at s[i] (an ESC) and
// returns the SGR sequence to keep ("" to drop it) and the bytes it
// spans. An unfinished sequence spans what is left of s.
func escapeAt(s string, i int) (string, int) {
	j := i + 1
	if j >= len(s) {
		return "", 1
	}
	switch s[j] {
	case '[': // CSI: parameters, intermediates, final byte
		k := j + 1
		for k < len(s) && s[k] >= 0x30 && s[k] <= 0x3f {
			k++
		}
		params := s[j+1 : k]
		inter := k
		for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
			k++
		}
		if k >= len(s) {
			return "", len(s) - i
		}
		if s[k] < 0x40 || s[k] > 0x7e {
			// Not a sequence: drop its introducer, keep what follows.
			return "", k - i
		}
		if s[k] != 'm' || k != inter {
			return "", k + 1 - i
		}
		return safeSGR(params), k + 1 - i
	case ']', 'P', '_', '^', 'X': // strings: up to BEL (OSC) or ST
		for k := j + 1; k < len(s); k++ {
			if s[k] == 0x07 && s[j] == ']' {
				return "", k + 1 - i
			}
			if s[k] == 0x1b && k+1 < len(s) && s[k+1] == '\\' {
				return "", k + 2 - i
			}
		}
		return "", len(s) - i
	}
	// ESC, intermediates, a final byte.
	k := j
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
		k++
	}
	if k < len(s) && s[k] >= 0x30 && s[k] <= 0x7e {
		k++
	}
	return "", k - i
}

// safeSGR is the SGR sequence with parameters params without blinking
// (5, 6) and concealed (8) text; "" when nothing is left or params is not
// plain SGR (a private marker such as "?" or "<").
func safeSGR(params string) string {
	if params == "" {
		return "\x1b[m"
	}
	for _, c := range params {
		if !(c >= '0' && c <= '9' || c == ';' || c == ':') {
			return ""
		}
	}
	fields := strings.Split(params, ";")
	kept := fields[:0:0]
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch f {
		case "5", "6", "8":
			continue
		case "38", "48", "58": // extended colour: 5;n or 2;r;g;b follow
			n := 0
			if i+1 < len(fields) {
				switch fields[i+1] {
				case "5":
					n = 2
				case "2":
					n = 4
				}
			}
			n = min(n, len(fields)-1-i)
			kept = append(kept, fields[i:i+1+n]...)
			i += n
			continue
		}
		kept = append(kept, f)
	}
	if len(kept) == 0 {
		return ""
	}
	return "\x1b[" + strings.Join(kept, ";") + "m"
}

// resets reports whether the SGR sequence seq turns every attribute off
// (before setting those after the reset).
func resets(seq string) bool {
	p := strings.TrimSuffix(strings.TrimPrefix(seq, "\x1b["), "m")
	if p == "" {
		return true
	}
	fields := strings.Split(p, ";")
	for i := 0; i < len(fields); i++ {
		switch fields[i] {
		case "0", "00", "":
			return true
		case "38", "48", "58":
			if i+1 < len(fields) && fields[i+1] == "5" {
				i += 2
			} else if i+1 < len(fields) && fields[i+1] == "2" {
				i += 4
			}
		}
	}
	return false
}

// onlyReset reports whether seq does nothing but reset.
func onlyReset(seq string) bool {
	p := strings.TrimSuffix(strings.TrimPrefix(seq, "\x1b["), "m")
	return strings.Trim(p, "0;") == ""
}
