package mdrender

import (
	"strconv"
	"unicode/utf8"
)

// decodeEntity decodes an HTML entity at the start of s ("&amp;",
// "&#65;", "&#x1F600;"). It knows the named entities that turn up in
// prose and code answers; others stay as they are. It returns the text
// and the bytes used, or 0 when s does not start with a known entity.
func decodeEntity(s string) (string, int) {
	if len(s) < 3 || s[0] != '&' {
		return "", 0
	}
	end := -1
	for i := 1; i < len(s) && i < 34; i++ {
		if s[i] == ';' {
			end = i
			break
		}
	}
	if end < 2 {
		return "", 0
	}
	name := s[1:end]
	if name[0] == '#' {
		var v uint64
		var err error
		if len(name) > 1 && (name[1] == 'x' || name[1] == 'X') {
			if len(name) < 3 || len(name) > 8 {
				return "", 0
			}
			v, err = strconv.ParseUint(name[2:], 16, 32)
		} else {
			if len(name) < 2 || len(name) > 8 {
				return "", 0
			}
			v, err = strconv.ParseUint(name[1:], 10, 32)
		}
		if err != nil {
			return "", 0
		}
		r := rune(v)
		if r == 0 || !utf8.ValidRune(r) {
			r = utf8.RuneError
		}
		if r < ' ' || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			r = utf8.RuneError // no control characters through the back door
		}
		return string(r), end + 1
	}
	text := namedEntity(name)
	if text == "" {
		return "", 0
	}
	return text, end + 1
}

func namedEntity(name string) string {
	switch name {
	case "amp":
		return "&"
	case "lt":
		return "<"
	case "gt":
		return ">"
	case "quot":
		return "\""
	case "apos":
		return "'"
	case "nbsp":
		return "\u00a0"
	case "copy":
		return "©"
	case "reg":
		return "®"
	case "trade":
		return "™"
	case "hellip":
		return "…"
	case "mdash":
		return "—"
	case "ndash":
		return "–"
	case "lsquo":
		return "‘"
	case "rsquo":
		return "’"
	case "ldquo":
		return "“"
	case "rdquo":
		return "”"
	case "laquo":
		return "«"
	case "raquo":
		return "»"
	case "bull":
		return "•"
	case "middot":
		return "·"
	case "times":
		return "×"
	case "divide":
		return "÷"
	case "plusmn":
		return "±"
	case "deg":
		return "°"
	case "le":
		return "≤"
	case "ge":
		return "≥"
	case "ne":
		return "≠"
	case "larr":
		return "←"
	case "rarr":
		return "→"
	case "uarr":
		return "↑"
	case "darr":
		return "↓"
	case "harr":
		return "↔"
	case "rArr":
		return "⇒"
	case "lArr":
		return "⇐"
	case "euro":
		return "€"
	case "pound":
		return "£"
	case "yen":
		return "¥"
	case "cent":
		return "¢"
	case "sect":
		return "§"
	case "para":
		return "¶"
	case "check":
		return "✓"
	case "infin":
		return "∞"
	case "micro":
		return "µ"
	case "frac12":
		return "½"
	case "frac14":
		return "¼"
	case "frac34":
		return "¾"
	}
	return ""
}
