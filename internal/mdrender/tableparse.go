package mdrender

import "strings"

// align is a table column's alignment.
type align uint8

const (
	alignNone align = iota
	alignLeft
	alignCenter
	alignRight
)

// splitRow splits a table row at unescaped pipes, dropping the optional
// leading and trailing pipe. Cells keep `\|` escaped; the inline parser
// turns it into a pipe.
func splitRow(line string) []string {
	s := strings.TrimSpace(line)
	if strings.HasPrefix(s, "|") {
		s = s[1:]
	}
	if strings.HasSuffix(s, "|") && !strings.HasSuffix(s, `\|`) {
		s = s[:len(s)-1]
	}
	var cells []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			cells = append(cells, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(cells, strings.TrimSpace(s[start:]))
}

// delimiterRow parses a table's delimiter row (`| :--- | ---: |`).
func delimiterRow(line string) ([]align, bool) {
	cells := splitRow(line)
	aligns := make([]align, 0, len(cells))
	for _, c := range cells {
		if c == "" {
			return nil, false
		}
		left := c[0] == ':'
		right := c[len(c)-1] == ':'
		inner := strings.Trim(c, ":")
		if inner == "" || strings.Trim(inner, "-") != "" {
			return nil, false
		}
		switch {
		case left && right:
			aligns = append(aligns, alignCenter)
		case left:
			aligns = append(aligns, alignLeft)
		case right:
			aligns = append(aligns, alignRight)
		default:
			aligns = append(aligns, alignNone)
		}
	}
	return aligns, true
}
