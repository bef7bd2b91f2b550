package mdrender

import "strings"

// forLines calls f for each line of src with its newline, if any, so the
// tokens still cover src exactly.
func forLines(src string, f func(line string)) {
	for len(src) > 0 {
		i := strings.IndexByte(src, '\n')
		if i < 0 {
			f(src)
			return
		}
		f(src[:i+1])
		src = src[i+1:]
	}
}

func highlightDiff(src string, emit func(string, tokKind)) {
	forLines(src, func(l string) {
		k := tPlain
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"),
			strings.HasPrefix(l, "diff "), strings.HasPrefix(l, "index "):
			k = tMeta
		case strings.HasPrefix(l, "@@"):
			k = tHunk
		case strings.HasPrefix(l, "+"):
			k = tAdded
		case strings.HasPrefix(l, "-"):
			k = tRemoved
		}
		emit(l, k)
	})
}

func highlightMarkdown(src string, emit func(string, tokKind)) {
	inFence := false
	forLines(src, func(l string) {
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			inFence = !inFence
			emit(l, tComment)
		case inFence:
			emit(l, tString)
		case strings.HasPrefix(t, "#"):
			emit(l, tKeyword)
		case strings.HasPrefix(t, ">"):
			emit(l, tComment)
		default:
			markdownInline(l, emit)
		}
	})
}

// markdownInline marks list markers and inline code in a Markdown line.
func markdownInline(l string, emit func(string, tokKind)) {
	s := codeScanner{src: l, emit: emit}
	i := len(l) - len(strings.TrimLeft(l, " "))
	if i < len(l) && (l[i] == '-' || l[i] == '*' || l[i] == '+') && i+1 < len(l) && l[i+1] == ' ' {
		i = s.tok(i, i+1, tKeyword)
	}
	for i < len(l) {
		if l[i] != '`' {
			i++
			continue
		}
		end := strings.IndexByte(l[i+1:], '`')
		if end < 0 {
			break
		}
		i = s.tok(i, i+1+end+1, tString)
	}
	s.finish()
}

func highlightYAML(src string, emit func(string, tokKind)) {
	forLines(src, func(l string) {
		s := codeScanner{src: l, emit: emit}
		body := strings.TrimRight(l, "\n")
		i := len(body) - len(strings.TrimLeft(body, " "))
		t := body[i:]
		if t == "---" || t == "..." {
			s.tok(i, len(body), tMeta)
			s.finish()
			return
		}
		for strings.HasPrefix(body[i:], "- ") {
			i += 2
			for i < len(body) && body[i] == ' ' {
				i++
			}
		}
		if i < len(body) && body[i] == '#' {
			s.tok(i, len(body), tComment)
			s.finish()
			return
		}
		if k := yamlKeyEnd(body, i); k > i {
			s.tok(i, k, tAttr)
			i = k + 1
			for i < len(body) && body[i] == ' ' {
				i++
			}
		}
		yamlValue(&s, body, i)
		s.finish()
	})
}

// yamlKeyEnd returns the offset of the ':' ending a plain or quoted key
// that starts at i, or -1.
func yamlKeyEnd(l string, i int) int {
	if i >= len(l) {
		return -1
	}
	if l[i] == '"' || l[i] == '\'' {
		end := strings.IndexByte(l[i+1:], l[i])
		if end < 0 {
			return -1
		}
		j := i + 1 + end + 1
		if j < len(l) && l[j] == ':' && (j+1 == len(l) || l[j+1] == ' ') {
			return j
		}
		return -1
	}
	for j := i; j < len(l); j++ {
		switch l[j] {
		case ':':
			if j+1 == len(l) || l[j+1] == ' ' {
				return j
			}
		case '#', '"', '\'', '{', '[':
			if j == i || l[j] == '#' {
				return -1
			}
		}
	}
	return -1
}

func yamlValue(s *codeScanner, l string, i int) {
	if i >= len(l) {
		return
	}
	v := l[i:]
	// A comment after the value.
	end := len(l)
	if c := strings.Index(v, " #"); c >= 0 && v[0] != '"' && v[0] != '\'' {
		end = i + c
	}
	val := strings.TrimRight(l[i:end], " ")
	switch {
	case val == "":
	case val[0] == '"' || val[0] == '\'':
		q := stringEnd(l, i+1, val[0], qEscaped)
		s.tok(i, q, tString)
		if c := strings.Index(l[q:], " #"); c >= 0 {
			s.tok(q+c+1, len(l), tComment)
		}
		return
	case val[0] == '&' || val[0] == '*':
		s.tok(i, i+len(val), tVariable)
	case val[0] == '!' || val == "|" || val == ">" || val == "|-" || val == ">-":
		s.tok(i, i+len(val), tMeta)
	case yamlConstant(val):
		s.tok(i, i+len(val), tConstant)
	case isDigit(val[0]) || ((val[0] == '-' || val[0] == '.') && len(val) > 1 && isDigit(val[1])):
		s.tok(i, i+len(val), tNumber)
	case val[0] == '[' || val[0] == '{':
	default:
		s.tok(i, i+len(val), tString)
	}
	if end < len(l) {
		s.tok(end+1, len(l), tComment)
	}
}

func yamlConstant(v string) bool {
	switch strings.ToLower(v) {
	case "true", "false", "null", "~", "yes", "no", "on", "off":
		return true
	}
	return false
}

// highlightHTML marks tags, attributes, their values, comments and
// entities in HTML or XML.
func highlightHTML(src string, emit func(string, tokKind)) {
	s := codeScanner{src: src, emit: emit}
	i := 0
	for i < len(src) {
		switch src[i] {
		case '<':
			i = htmlTag(&s, i)
		case '&':
			if end := strings.IndexByte(src[i:], ';'); end > 1 && end < 12 && strings.IndexAny(src[i:i+end], " <\n") < 0 {
				i = s.tok(i, i+end+1, tConstant)
			} else {
				i++
			}
		default:
			i++
		}
	}
	s.finish()
}

func htmlTag(s *codeScanner, i int) int {
	src := s.src
	rest := src[i:]
	switch {
	case strings.HasPrefix(rest, "<!--"):
		end := strings.Index(rest[4:], "-->")
		if end < 0 {
			return s.tok(i, len(src), tComment)
		}
		return s.tok(i, i+4+end+3, tComment)
	case strings.HasPrefix(rest, "<!") || strings.HasPrefix(rest, "<?"):
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return s.tok(i, len(src), tMeta)
		}
		return s.tok(i, i+end+1, tMeta)
	}
	j := i + 1
	if j < len(src) && src[j] == '/' {
		j++
	}
	k := j
	for k < len(src) && (isIdentByte(src[k]) || src[k] == '-' || src[k] == ':' || src[k] == '.') {
		k++
	}
	if k == j {
		return i + 1
	}
	s.tok(j, k, tTag)
	// Attributes up to '>'.
	for k < len(src) && src[k] != '>' && src[k] != '<' {
		c := src[k]
		switch {
		case c == '"' || c == '\'':
			end := strings.IndexByte(src[k+1:], c)
			if end < 0 {
				return s.tok(k, len(src), tString)
			}
			k = s.tok(k, k+1+end+1, tString)
		case isIdentStart(c):
			a := k
			for k < len(src) && (isIdentByte(src[k]) || src[k] == '-' || src[k] == ':' || src[k] == '.') {
				k++
			}
			s.tok(a, k, tAttr)
		default:
			k++
		}
	}
	if k < len(src) && src[k] == '>' {
		k++
	}
	return k
}
