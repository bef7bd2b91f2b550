package mdrender

import "strings"

// code renders a fenced or indented code block, two columns in,
// highlighted by the fence's language in colour mode. Long lines are
// broken at the width rather than word-wrapped, so spacing survives.
func (r *renderer) code(b *block) {
	lines := b.lines
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) == 0 {
		return
	}
	r.pushFrame("  ", "  ", "")
	defer r.popFrame()
	l := langNone
	if r.color {
		l = langOf(b.info)
	}
	if l == langNone {
		for _, line := range lines {
			r.pieces = append(r.pieces[:0], piece{text: line})
			hardWrap(r.pieces, r.avail, r.emitFn)
		}
		return
	}
	buf := r.pieces[:0]
	emitTok := func(text string, k tokKind) {
		sgr := r.tokStyle(k)
		for {
			i := strings.IndexByte(text, '\n')
			if i < 0 {
				if text != "" {
					buf = append(buf, piece{text: text, sgr: sgr})
				}
				return
			}
			if i > 0 {
				buf = append(buf, piece{text: text[:i], sgr: sgr})
			}
			hardWrap(buf, r.avail, r.emitFn)
			buf = buf[:0]
			text = text[i+1:]
		}
	}
	highlight(l, strings.Join(lines, "\n"), emitTok)
	hardWrap(buf, r.avail, r.emitFn)
	r.pieces = buf[:0]
}

func (r *renderer) tokStyle(k tokKind) string {
	t := &r.th
	var s Style
	switch k {
	case tKeyword:
		s = t.Keyword
	case tType:
		s = t.Type
	case tString:
		s = t.String
	case tComment:
		s = t.Comment
	case tNumber:
		s = t.Number
	case tConstant:
		s = t.Constant
	case tFunc:
		s = t.Func
	case tTag:
		s = t.Tag
	case tAttr:
		s = t.Attr
	case tMeta:
		s = t.Meta
	case tVariable:
		s = t.Variable
	case tAdded:
		s = t.Added
	case tRemoved:
		s = t.Removed
	case tHunk:
		s = t.Hunk
	}
	return string(s)
}
