package read

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"reins/internal/filestate"
	"reins/internal/llm"
	"reins/internal/tool"
)

// pdfTimeout bounds one pdftotext run.
const pdfTimeout = 60 * time.Second

func isPDF(path string) bool { return strings.EqualFold(filepath.Ext(path), ".pdf") }

// parsePages parses "3" or "1-5" into a first and last page.
func parsePages(s string) (int, int, error) {
	s = strings.TrimSpace(s)
	a, b, isRange := strings.Cut(s, "-")
	first, err1 := strconv.Atoi(strings.TrimSpace(a))
	last := first
	var err2 error
	if isRange {
		last, err2 = strconv.Atoi(strings.TrimSpace(b))
	}
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf("pages must be a page number or a range such as \"1-5\", got %q", s)
	case first < 1 || last < first:
		return 0, 0, fmt.Errorf("pages %q is not a valid range: pages count from 1 and the range must not run backwards", s)
	case last-first+1 > MaxPDFPages:
		return 0, 0, fmt.Errorf("pages %q asks for %d pages; at most %d can be read per call", s, last-first+1, MaxPDFPages)
	}
	return first, last, nil
}

func (t *Tool) lookPath(name string) (string, error) {
	if t.LookPath != nil {
		return t.LookPath(name)
	}
	return exec.LookPath(name)
}

func (t *Tool) readPDF(ctx context.Context, in Input, real string, info fs.FileInfo) (*tool.Result, error) {
	prog, err := t.lookPath("pdftotext")
	if err != nil {
		return nil, fmt.Errorf("reading PDF files needs the pdftotext program (from poppler-utils), which is not installed here. Install it, or convert the PDF to text another way with Bash")
	}
	first, last := 1, PDFPagesFree+1
	explicit := in.Pages != ""
	if explicit {
		if first, last, err = parsePages(in.Pages); err != nil {
			return nil, err
		}
	}
	pages, err := pdfText(ctx, prog, real, first, last)
	if errors.Is(err, errPastEnd) {
		pages, err = nil, nil // answered below: the PDF has no such page
	}
	if err != nil {
		return nil, fmt.Errorf("read PDF %s: %w", in.FilePath, err)
	}
	if !explicit && len(pages) > PDFPagesFree {
		return nil, fmt.Errorf("%s has more than %d pages; pass pages to read part of it (for example \"1-5\"), at most %d pages per call", in.FilePath, PDFPagesFree, MaxPDFPages)
	}
	if explicit && len(pages) == 0 {
		return nil, fmt.Errorf("%s has no page %d; it has fewer pages than that", in.FilePath, first)
	}
	var sb strings.Builder
	for i, p := range pages {
		fmt.Fprintf(&sb, "--- Page %d ---\n%s\n", first+i, strings.TrimRight(p, "\n"))
	}
	text := strings.TrimRight(sb.String(), "\n")
	if strings.TrimSpace(strings.Join(pages, "")) == "" {
		text += "\n(No text could be extracted; the pages may be scanned images.)"
	}
	if tokens := len(text) / 4; tokens > MaxTokens {
		return nil, fmt.Errorf("the text of those pages of %s is about %d tokens, more than the %d allowed in one read; ask for fewer pages", in.FilePath, tokens, MaxTokens)
	}
	b, err := os.ReadFile(real)
	if err == nil {
		t.files.Record(filestate.EntryFor(real, b, info))
	}
	lines := splitLines(text)
	data := &TextData{Type: "text", File: TextFile{FilePath: in.FilePath, Content: text, NumLines: len(lines), StartLine: 1, TotalLines: len(lines)}}
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(text)}, Data: data}, nil
}

// errPastEnd is pdfText's error when the first page asked for is past
// the document's last page.
var errPastEnd = errors.New("the first page asked for is past the last page")

// pdfText runs pdftotext on pages first..last and returns the text of each
// page (pdftotext ends every page with a form feed).
func pdfText(ctx context.Context, prog, path string, first, last int) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, pdfTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, "-layout", "-enc", "UTF-8", "-f", strconv.Itoa(first), "-l", strconv.Itoa(last), path, "-")
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("pdftotext did not finish in %s", pdfTimeout)
		}
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "Wrong page range given") {
			return nil, errPastEnd
		}
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) && msg != "" {
			return nil, fmt.Errorf("pdftotext failed: %s", msg)
		}
		return nil, fmt.Errorf("pdftotext: %w", err)
	}
	s := strings.ToValidUTF8(out.String(), "\uFFFD")
	pages := strings.Split(s, "\f")
	if len(pages) > 0 && strings.TrimSpace(pages[len(pages)-1]) == "" {
		pages = pages[:len(pages)-1]
	}
	return pages, nil
}
