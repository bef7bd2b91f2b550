package mdrender

import (
	"strings"
	"testing"
	"time"

	"charm.land/glamour/v2"
	gstyles "charm.land/glamour/v2/styles"
)

// benchInput is a model answer of about 20 KB made of the testdata
// documents: prose, lists, tables, and code in a dozen languages.
func benchInput(b *testing.B) string {
	var parts []string
	for _, name := range []string{"answer.md", "code.md", "tables.md", "lists.md", "constructs.md"} {
		parts = append(parts, readInput(b, name))
	}
	doc := strings.Join(parts, "\n\n")
	var s strings.Builder
	for s.Len() < 20<<10 {
		s.WriteString(doc)
		s.WriteString("\n\n")
	}
	return s.String()
}

// glamourPerOp renders src with glamour as the TUI used to (dark style,
// no margin, word wrap at width) and returns the time per render.
func glamourPerOp(b *testing.B, src string, width, n int) time.Duration {
	cfg := gstyles.DarkStyleConfig
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	r, err := glamour.NewTermRenderer(glamour.WithStyles(cfg), glamour.WithWordWrap(width))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := r.Render(src); err != nil { // warm up: lexers and styles load lazily
		b.Fatal(err)
	}
	start := time.Now()
	for range n {
		if _, err := r.Render(src); err != nil {
			b.Fatal(err)
		}
	}
	return time.Since(start) / time.Duration(n)
}

// BenchmarkRender renders a 20 KB answer at 80 columns in colour and
// reports the time per KB beside glamour's for the same input, measured
// in the same run.
func BenchmarkRender(b *testing.B) {
	src := benchInput(b)
	kb := float64(len(src)) / 1024
	ref := glamourPerOp(b, src, 80, 5)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		Render(src, Options{Width: 80, Color: true})
	}
	per := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(per.Microseconds())/kb, "µs/KB")
	b.ReportMetric(float64(ref.Microseconds())/kb, "µs/KB-glamour")
	b.ReportMetric(float64(ref)/float64(per), "x-faster")
	b.Logf("%.1f KB answer: mdrender %v (%.1f µs/KB), glamour %v (%.1f µs/KB), %.0fx faster",
		kb, per, float64(per.Microseconds())/kb, ref, float64(ref.Microseconds())/kb, float64(ref)/float64(per))
}

// BenchmarkRenderPlain is BenchmarkRender without colour (NO_COLOR).
func BenchmarkRenderPlain(b *testing.B) {
	src := benchInput(b)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Render(src, Options{Width: 80})
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/(float64(len(src))/1024), "µs/KB")
}

// BenchmarkRenderHostile renders inputs built to defeat a naive parser
// (unmatched delimiters, deep nesting, wide tables); each is compared with
// the plain prose benchmark input of similar size, so superlinear
// behaviour shows as a large ratio.
func BenchmarkRenderHostile(b *testing.B) {
	var nested strings.Builder
	for i := range 300 {
		nested.WriteString(strings.Repeat(" ", i*2) + "- x\n")
	}
	inputs := []struct{ name, src string }{
		{"openers", strings.Repeat("*a _b ", 5000)},
		{"nested-strong", strings.Repeat("**a ", 5000) + strings.Repeat("b** ", 5000)},
		{"brackets", strings.Repeat("[", 10000) + strings.Repeat("]", 10000)},
		{"backticks", "`" + strings.Repeat("a ``", 5000)},
		{"quotes", strings.Repeat(">", 10000) + " x"},
		{"nested-lists", nested.String()},
		{"wide-table", "|" + strings.Repeat("a|", 500) + "\n|" + strings.Repeat("-|", 500) + "\n" + strings.Repeat("|"+strings.Repeat("b|", 500)+"\n", 10)},
	}
	prose := readInput(b, "answer.md")
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			ref := strings.Repeat(prose, max(1, len(in.src)/len(prose)))
			start := time.Now()
			Render(ref, Options{Width: 80, Color: true})
			refPer := time.Since(start)
			b.ResetTimer()
			for b.Loop() {
				Render(in.src, Options{Width: 80, Color: true})
			}
			per := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(per)/float64(refPer), "x-prose")
		})
	}
}
