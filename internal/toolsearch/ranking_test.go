package toolsearch

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"reins/internal/tool"
)

// catTool is a tool of the test catalogue.
type catTool struct {
	tool.Defaults
	name, hint, desc string
	schema           json.RawMessage
	deferrable       bool
}

func (c *catTool) Name() string                 { return c.name }
func (c *catTool) Description() string          { return c.desc }
func (c *catTool) InputSchema() json.RawMessage { return c.schema }
func (c *catTool) Call(_ context.Context, call *tool.Call, in json.RawMessage, _ func(tool.Progress)) (*tool.Result, error) {
	return tool.Text(fmt.Sprintf("%s called with %s", c.name, in)), nil
}

// hinted is a catalogue tool that declares a search hint (built-ins).
type hinted struct{ *catTool }

func (h hinted) ShouldDefer() bool  { return true }
func (h hinted) SearchHint() string { return h.hint }

func loadCatalogue(t testing.TB) []tool.Tool {
	t.Helper()
	f, err := os.Open("testdata/catalogue.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []tool.Tool
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct {
			Name        string   `json:"name"`
			Hint        string   `json:"hint"`
			Description string   `json:"description"`
			Params      []string `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("catalogue line %q: %v", sc.Text(), err)
		}
		props := map[string]any{}
		for _, p := range rec.Params {
			props[p] = map[string]any{"type": "string", "description": "the " + strings.ReplaceAll(p, "_", " ")}
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		ct := &catTool{name: rec.Name, hint: rec.Hint, desc: rec.Description, schema: schema}
		if rec.Hint != "" {
			out = append(out, hinted{ct})
		} else {
			out = append(out, ct)
		}
	}
	return out
}

type rankCase struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
}

func loadQueries(t testing.TB) []rankCase {
	t.Helper()
	data, err := os.ReadFile("testdata/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []rankCase
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c rankCase
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("query line %q: %v", line, err)
		}
		out = append(out, c)
	}
	return out
}

// TestRankingPutsExpectedToolsInTopThree runs the queries written with the
// catalogue, before the ranker was tuned, and asserts that each expected
// tool is among the first three results.
func TestRankingPutsExpectedToolsInTopThree(t *testing.T) {
	tools := loadCatalogue(t)
	if len(tools) < 100 {
		t.Fatalf("catalogue has %d tools, want at least 100", len(tools))
	}
	cases := loadQueries(t)
	if len(cases) < 30 {
		t.Fatalf("%d queries, want at least 30", len(cases))
	}
	c := newCatalog(tools, true, parseGlossary(glossaryText))
	for _, tc := range cases {
		t.Run(tc.Query, func(t *testing.T) {
			q, err := parseQuery(tc.Query)
			if err != nil {
				t.Fatal(err)
			}
			r := c.search(q, 3, DefaultWeights)
			var got []string
			for _, m := range r.matches {
				got = append(got, m.Name())
			}
			for _, want := range tc.Expect {
				found := false
				for _, g := range got {
					found = found || g == want
				}
				if !found {
					t.Errorf("%s not in top 3: %v", want, got)
				}
			}
		})
	}
}
