package toolsearch

import (
	"strings"
	"unicode"
)

// stopwords are English words too common to say anything about a tool.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "in": true, "on": true, "for": true,
	"with": true, "and": true, "or": true, "by": true, "from": true, "is": true, "are": true, "be": true,
	"this": true, "that": true, "it": true, "as": true, "at": true, "its": true, "into": true,
	"my": true, "me": true, "i": true, "do": true, "how": true, "what": true, "why": true, "did": true,
	"can": true, "you": true, "your": true, "please": true, "some": true, "any": true, "all": true,
	"we": true, "our": true, "us": true, "want": true, "need": true, "use": true, "using": true,
	"mcp": true, "tool": true, "tools": true, "such": true, "like": true, "one": true, "not": true,
	"when": true, "which": true, "will": true, "would": true, "should": true, "could": true, "there": true,
}

// isCJK reports whether r is a Han, Hiragana, Katakana or Hangul letter,
// written without spaces between words.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// tokenize splits text into search terms: lower-cased, stemmed Latin words
// without stopwords, and for runs of CJK letters each letter and each pair
// of adjacent letters (so "发送邮件" matches "发送" and "邮件").
func tokenize(text string) []string {
	var out []string
	var word []rune
	var cjk []rune
	flushWord := func() {
		if len(word) > 0 {
			w := strings.ToLower(string(word))
			word = word[:0]
			if !stopwords[w] {
				out = append(out, stem(w))
			}
		}
	}
	flushCJK := func() {
		for i, r := range cjk {
			out = append(out, string(r))
			if i+1 < len(cjk) {
				out = append(out, string(cjk[i:i+2]))
			}
		}
		cjk = cjk[:0]
	}
	for _, r := range text {
		switch {
		case isCJK(r):
			flushWord()
			cjk = append(cjk, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			flushCJK()
			word = append(word, r)
		default:
			flushWord()
			flushCJK()
		}
	}
	flushWord()
	flushCJK()
	return out
}

// stem strips common English inflections so "issues", "issue" and
// "scheduled" meet "schedule". It is deliberately light: query and index go
// through the same function, so it only has to be consistent.
func stem(w string) string {
	if len(w) <= 3 || !isASCII(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ing") && len(w) > 5:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) > 4:
		w = undouble(w[:len(w)-2])
	case strings.HasSuffix(w, "es") && len(w) > 4 && strings.ContainsRune("sxz", rune(w[len(w)-3])):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		w = w[:len(w)-1]
	}
	// A silent final e goes too, so "create", "created" and "creating"
	// all become "creat".
	if len(w) > 4 && w[len(w)-1] == 'e' {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops a consonant doubled before a stripped suffix
// ("running" → "run").
func undouble(w string) string {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// nameParts splits a tool name into words: "mcp__github__create_issue" →
// github, create, issue; "CronCreate" → cron, create; "get-sum" → get, sum.
// The mcp prefix is dropped.
func nameParts(name string) []string {
	var parts []string
	for _, seg := range strings.FieldsFunc(name, func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' || r == ':'
	}) {
		parts = append(parts, splitCamel(seg)...)
	}
	if len(parts) > 1 && strings.HasPrefix(name, "mcp__") && parts[0] == "mcp" {
		parts = parts[1:]
	}
	return parts
}

// splitCamel splits "CronCreate" into "cron", "create" and "HTTPServer"
// into "http", "server"; the words are lower-cased. Digits stay with their
// letters ("s3", "oauth2").
func splitCamel(s string) []string {
	rs := []rune(s)
	var out []string
	start := 0
	for i := 1; i < len(rs); i++ {
		lowerToUpper := unicode.IsLower(rs[i-1]) && unicode.IsUpper(rs[i])
		acronymEnd := unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i]) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if lowerToUpper || acronymEnd {
			out = append(out, strings.ToLower(string(rs[start:i])))
			start = i
		}
	}
	if start < len(rs) {
		out = append(out, strings.ToLower(string(rs[start:])))
	}
	return out
}

// nameTerms is the tokenized form of a name's parts.
func nameTerms(name string) []string {
	var out []string
	for _, p := range nameParts(name) {
		out = append(out, tokenize(p)...)
	}
	return out
}
