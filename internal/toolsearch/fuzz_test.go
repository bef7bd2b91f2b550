package toolsearch

import (
	"testing"
	"unicode/utf8"
)

// FuzzSearch feeds arbitrary queries to the parser and the ranker: they
// must never panic, and results never exceed the limit.
func FuzzSearch(f *testing.F) {
	for _, s := range []string{"select:A,B", "discover:send mail", "+slack send", "mcp__github", "发送邮件", "", "+", "select:", "CronCreate", "\xff\xfe", "a_b-CamelCase s3"} {
		f.Add(s)
	}
	c := newCatalog(loadCatalogue(f), true, parseGlossary(glossaryText))
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range tokenize(s) {
			if tok == "" || !utf8.ValidString(tok) && utf8.ValidString(s) {
				t.Fatalf("bad token %q from %q", tok, s)
			}
		}
		q, err := parseQuery(s)
		if err != nil {
			return
		}
		r := c.search(q, 3, DefaultWeights)
		if (q.kind != kindSelect && len(r.matches) > 3) || len(r.matches) > MaxMaxResults {
			t.Fatalf("%d matches for limit 3", len(r.matches))
		}
	})
}
