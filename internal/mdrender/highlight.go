package mdrender

import (
	"strings"
	"unicode/utf8"
)

// tokKind is the class of a highlighted token.
type tokKind uint8

const (
	tPlain tokKind = iota
	tKeyword
	tType
	tString
	tComment
	tNumber
	tConstant
	tFunc
	tTag
	tAttr
	tMeta
	tVariable
	tAdded
	tRemoved
	tHunk
)

// lang is a language the highlighter knows.
type lang uint8

const (
	langNone lang = iota
	langGo
	langPython
	langJS
	langTS
	langJSON
	langYAML
	langBash
	langRust
	langJava
	langC
	langCPP
	langSQL
	langDiff
	langHTML
	langMarkdown
)

// langOf picks the language from a code fence's info string: its first
// word, in any case, with pandoc's "{.lang}" and "lang:file" forms.
func langOf(info string) lang {
	info = strings.TrimLeft(info, "{.")
	if i := strings.IndexAny(info, " ,:{}"); i >= 0 {
		info = info[:i]
	}
	switch strings.ToLower(info) {
	case "go", "golang":
		return langGo
	case "py", "python", "python3", "py3", "pyi":
		return langPython
	case "js", "javascript", "jsx", "mjs", "cjs", "node", "nodejs":
		return langJS
	case "ts", "typescript", "tsx", "mts", "cts":
		return langTS
	case "json", "jsonc", "json5", "jsonl", "ndjson":
		return langJSON
	case "yaml", "yml":
		return langYAML
	case "bash", "sh", "shell", "zsh", "ksh", "console", "shell-session", "shellsession", "terminal":
		return langBash
	case "rust", "rs":
		return langRust
	case "java":
		return langJava
	case "c", "h":
		return langC
	case "cpp", "c++", "cc", "cxx", "hpp", "hh", "hxx", "cu", "cuda":
		return langCPP
	case "sql", "mysql", "postgres", "postgresql", "psql", "pgsql", "sqlite", "plsql", "tsql":
		return langSQL
	case "diff", "patch", "udiff":
		return langDiff
	case "html", "htm", "xhtml", "xml", "svg", "xsl", "xslt", "plist":
		return langHTML
	case "markdown", "md", "mdx":
		return langMarkdown
	}
	return langNone
}

// highlight splits src into tokens of l and passes them to emit in order;
// the tokens cover src exactly.
func highlight(l lang, src string, emit func(string, tokKind)) {
	switch l {
	case langDiff:
		highlightDiff(src, emit)
	case langYAML:
		highlightYAML(src, emit)
	case langHTML:
		highlightHTML(src, emit)
	case langMarkdown:
		highlightMarkdown(src, emit)
	case langNone:
		emit(src, tPlain)
	default:
		c := configFor(l)
		scanCode(&c, src, emit)
	}
}

// quoting says how a quote character opens a string.
type quoting uint8

const (
	qNone     quoting = iota
	qEscaped          // backslash escapes; ends at the line's end if unclosed
	qRaw              // no escapes; may span lines (Go raw strings, shell '...')
	qTemplate         // backslash escapes; may span lines (JS template, shell "...")
)

// codeConfig describes a C-like language for scanCode.
type codeConfig struct {
	classify   func(string) tokKind
	line1      string // line comment markers
	line2      string
	block      bool // /* */ comments
	hash       int  // '#' comments: 1 anywhere, 2 at the start of a word
	dq, sq, bq quoting
	triple     bool // Python's """ and ''' strings
	strPrefix  bool // Python's r"", f"", b""
	rust       bool // raw strings r#""#, lifetimes, name! macros
	capTypes   bool // Capitalised identifiers are types
	dollarVar  bool // $NAME and ${...}
	preproc    bool // # directives at a line's start
	annotation bool // @Name
	fold       bool // keywords in any case
	jsonKeys   bool // a string before ':' is a key
	funcCall   bool // name( is a function
}

func configFor(l lang) codeConfig {
	switch l {
	case langGo:
		return codeConfig{classify: goWord, line1: "//", block: true, dq: qEscaped, sq: qEscaped, bq: qRaw, funcCall: true}
	case langPython:
		return codeConfig{classify: pythonWord, hash: 1, dq: qEscaped, sq: qEscaped, triple: true, strPrefix: true, annotation: true, funcCall: true}
	case langJS:
		return codeConfig{classify: jsWord, line1: "//", block: true, dq: qEscaped, sq: qEscaped, bq: qTemplate, capTypes: true, funcCall: true}
	case langTS:
		return codeConfig{classify: tsWord, line1: "//", block: true, dq: qEscaped, sq: qEscaped, bq: qTemplate, capTypes: true, funcCall: true, annotation: true}
	case langJSON:
		return codeConfig{classify: jsonWord, line1: "//", block: true, dq: qEscaped, jsonKeys: true}
	case langBash:
		return codeConfig{classify: bashWord, hash: 2, dq: qTemplate, sq: qRaw, dollarVar: true}
	case langRust:
		return codeConfig{classify: rustWord, line1: "//", block: true, dq: qTemplate, rust: true, capTypes: true, funcCall: true}
	case langJava:
		return codeConfig{classify: javaWord, line1: "//", block: true, dq: qEscaped, sq: qEscaped, triple: true, capTypes: true, annotation: true, funcCall: true}
	case langC:
		return codeConfig{classify: cWord, line1: "//", block: true, dq: qEscaped, sq: qEscaped, preproc: true, funcCall: true}
	case langCPP:
		return codeConfig{classify: cppWord, line1: "//", block: true, dq: qEscaped, sq: qEscaped, preproc: true, funcCall: true}
	case langSQL:
		return codeConfig{classify: sqlWord, line1: "--", block: true, dq: qRaw, sq: qRaw, fold: true}
	}
	return codeConfig{classify: func(string) tokKind { return tPlain }}
}

func isIdentStart(c byte) bool {
	return c == '_' || isASCIILetter(c) || c >= 0x80
}

func isIdentByte(c byte) bool {
	return c == '_' || isASCIILetter(c) || isDigit(c) || c >= 0x80
}

// codeScanner emits plain text lazily so that runs of plain bytes become
// one token.
type codeScanner struct {
	src        string
	plainStart int
	emit       func(string, tokKind)
}

func (s *codeScanner) tok(start, end int, k tokKind) int {
	if start > s.plainStart {
		s.emit(s.src[s.plainStart:start], tPlain)
	}
	if end > start {
		s.emit(s.src[start:end], k)
	}
	s.plainStart = end
	return end
}

func (s *codeScanner) finish() {
	if len(s.src) > s.plainStart {
		s.emit(s.src[s.plainStart:], tPlain)
	}
}

// scanCode highlights a C-like language described by c.
func scanCode(c *codeConfig, src string, emit func(string, tokKind)) {
	s := codeScanner{src: src, emit: emit}
	lineStart := true
	i := 0
	for i < len(src) {
		ch := src[i]
		if ch == '\n' {
			lineStart = true
			i++
			continue
		}
		if ch == ' ' {
			i++
			continue
		}
		wasLineStart := lineStart
		lineStart = false
		rest := src[i:]
		switch {
		case c.line1 != "" && strings.HasPrefix(rest, c.line1), c.line2 != "" && strings.HasPrefix(rest, c.line2):
			i = s.tok(i, lineEnd(src, i), tComment)
		case c.block && strings.HasPrefix(rest, "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src)
			} else {
				end += i + 4
			}
			i = s.tok(i, end, tComment)
		case ch == '#' && c.preproc && wasLineStart:
			i = s.tok(i, lineEnd(src, i), tMeta)
		case ch == '#' && (c.hash == 1 || (c.hash == 2 && (i == 0 || src[i-1] == ' ' || src[i-1] == '\n' || src[i-1] == ';'))):
			i = s.tok(i, lineEnd(src, i), tComment)
		case ch == '"' || ch == '\'' || ch == '`':
			i = s.quoted(c, i)
		case isDigit(ch) || (ch == '.' && i+1 < len(src) && isDigit(src[i+1])):
			i = s.tok(i, numberEnd(src, i), tNumber)
		case ch == '$' && c.dollarVar:
			i = s.tok(i, dollarEnd(src, i), tVariable)
		case ch == '@' && c.annotation && i+1 < len(src) && isIdentStart(src[i+1]):
			j := i + 1
			for j < len(src) && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			i = s.tok(i, j, tMeta)
		case isIdentStart(ch) || (ch == '$' && !c.dollarVar):
			i = s.word(c, i)
		default:
			i++
		}
	}
	s.finish()
}

func (s *codeScanner) word(c *codeConfig, i int) int {
	src := s.src
	j := i + 1
	for j < len(src) && (isIdentByte(src[j]) || src[j] == '$') {
		j++
	}
	w := src[i:j]
	if j < len(src) {
		next := src[j]
		if c.strPrefix && (next == '"' || next == '\'') && len(w) <= 2 && strings.Trim(w, "rRbBfFuU") == "" {
			return s.quotedFrom(c, i, j, strings.ContainsAny(w, "rR"))
		}
		if c.rust && (w == "r" || w == "br") && (next == '"' || next == '#') {
			if end := rustRawEnd(src, j); end > 0 {
				return s.tok(i, end, tString)
			}
		}
		if c.rust && w == "b" && (next == '"' || next == '\'') {
			return s.quotedFrom(c, i, j, false)
		}
	}
	key := w
	if c.fold {
		key = strings.ToLower(w)
	}
	k := c.classify(key)
	if k == tPlain {
		switch {
		case c.rust && j < len(src) && src[j] == '!' && (j+1 >= len(src) || src[j+1] != '='):
			return s.tok(i, j+1, tFunc)
		case c.capTypes && w[0] >= 'A' && w[0] <= 'Z':
			k = tType
		case c.funcCall && j < len(src) && src[j] == '(':
			k = tFunc
		}
	}
	if k == tPlain {
		return j
	}
	return s.tok(i, j, k)
}

func (s *codeScanner) quoted(c *codeConfig, i int) int {
	q := s.src[i]
	if c.triple && (q == '"' || q == '\'') && strings.HasPrefix(s.src[i:], strings.Repeat(string(q), 3)) {
		return s.quotedFrom(c, i, i, false)
	}
	if q == '\'' && c.rust {
		// A lifetime ('a) unless it closes like a char literal ('a', '\n').
		j := i + 1
		if j < len(s.src) && s.src[j] == '\\' {
			return s.tok(i, stringEnd(s.src, i+1, '\'', qEscaped), tString)
		}
		if _, size := decodeRune(s.src[j:]); j+size < len(s.src) && s.src[j+size] == '\'' {
			return s.tok(i, j+size+1, tString)
		}
		k := j
		for k < len(s.src) && isIdentByte(s.src[k]) {
			k++
		}
		if k == j {
			return i + 1
		}
		return s.tok(i, k, tType)
	}
	return s.quotedFrom(c, i, i, false)
}

// quotedFrom scans a string whose prefix starts at start and whose quote
// is at q.
func (s *codeScanner) quotedFrom(c *codeConfig, start, q int, raw bool) int {
	src := s.src
	ch := src[q]
	if c.triple && strings.HasPrefix(src[q:], strings.Repeat(string(ch), 3)) {
		closer := strings.Repeat(string(ch), 3)
		end := strings.Index(src[q+3:], closer)
		if end < 0 {
			return s.tok(start, len(src), tString)
		}
		return s.tok(start, q+3+end+3, tString)
	}
	mode := qEscaped
	switch ch {
	case '"':
		mode = c.dq
	case '\'':
		mode = c.sq
	case '`':
		mode = c.bq
	}
	if mode == qNone {
		return q + 1
	}
	if raw && mode == qEscaped {
		mode = qRaw
		if end := strings.IndexAny(src[q+1:], string(ch)+"\n"); end >= 0 && src[q+1+end] == '\n' {
			return s.tok(start, q+1+end, tString)
		}
	}
	end := stringEnd(src, q+1, ch, mode)
	k := tString
	if c.jsonKeys {
		j := end
		for j < len(src) && src[j] == ' ' {
			j++
		}
		if j < len(src) && src[j] == ':' {
			k = tAttr
		}
	}
	return s.tok(start, end, k)
}

// stringEnd finds the end (after the closing quote) of a string whose
// body starts at i.
func stringEnd(src string, i int, q byte, mode quoting) int {
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\' && mode != qRaw:
			i += 2
			continue
		case c == q:
			return i + 1
		case c == '\n' && mode == qEscaped:
			return i
		}
		i++
	}
	return len(src)
}

func rustRawEnd(src string, j int) int {
	hashes := 0
	for j < len(src) && src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(src) || src[j] != '"' {
		return 0
	}
	closer := "\"" + strings.Repeat("#", hashes)
	end := strings.Index(src[j+1:], closer)
	if end < 0 {
		return len(src)
	}
	return j + 1 + end + len(closer)
}

func lineEnd(src string, i int) int {
	if n := strings.IndexByte(src[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(src)
}

func numberEnd(src string, i int) int {
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case isDigit(c) || isASCIILetter(c) || c == '_':
			j++
		case c == '.' && j+1 < len(src) && isDigit(src[j+1]):
			j++
		case (c == '+' || c == '-') && (src[j-1] == 'e' || src[j-1] == 'E') && !strings.HasPrefix(src[i:], "0x"):
			j++
		default:
			return j
		}
	}
	return j
}

// dollarEnd scans a shell parameter: $NAME, ${...}, $1, $@, $?.
func dollarEnd(src string, i int) int {
	j := i + 1
	if j >= len(src) {
		return j
	}
	switch c := src[j]; {
	case c == '{':
		if end := strings.IndexByte(src[j:], '}'); end >= 0 && strings.IndexByte(src[j:j+end], '\n') < 0 {
			return j + end + 1
		}
		return j + 1
	case isIdentStart(c) && c < 0x80:
		for j < len(src) && isIdentByte(src[j]) && src[j] < 0x80 {
			j++
		}
		return j
	case isDigit(c) || strings.IndexByte("@*#?$!-", c) >= 0:
		return j + 1
	}
	return j
}

func decodeRune(s string) (rune, int) {
	return utf8.DecodeRuneInString(s)
}
