package read

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"reins/internal/filestate"
	"reins/internal/fsutil"
	"reins/internal/llm"
	"reins/internal/tool"
)

var errNotExist = fs.ErrNotExist

// span is the lines a read asked for: start is 1-based, limit 0 means
// DefaultLines.
func span(in Input) (start, limit int) {
	start = 1
	if in.Offset != nil && *in.Offset > 1 {
		start = *in.Offset
	}
	limit = DefaultLines
	if in.Limit != nil {
		limit = *in.Limit
	}
	return start, limit
}

func (t *Tool) readText(in Input, real string, info fs.FileInfo) (*tool.Result, error) {
	if fsutil.BinaryExtension(real) {
		return nil, fmt.Errorf("%s is a binary file (%s) and cannot be shown as text", in.FilePath, filepath.Ext(real))
	}
	ranged := in.Offset != nil || in.Limit != nil
	if !ranged && info.Size() > MaxWholeBytes {
		return nil, fmt.Errorf("%s is %s, more than the %d KB that can be read at once. Read it in parts with offset and limit (for example offset 1, limit 500), or use Grep to find the lines you need",
			in.FilePath, humanSize(info.Size()), MaxWholeBytes>>10)
	}
	start, limit := span(in)
	var (
		lines []string
		total int
		hash  string
		err   error
	)
	if info.Size() > t.streamAbove {
		lines, total, hash, err = streamLines(real, start, limit)
	} else {
		lines, total, hash, err = loadLines(real, start, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.FilePath, err)
	}
	data := &TextData{Type: "text", File: TextFile{FilePath: in.FilePath, StartLine: start, TotalLines: total, NumLines: len(lines), Content: strings.Join(lines, "\n")}}
	entry := filestate.Entry{Path: real, Hash: hash, Size: info.Size(), ModTime: info.ModTime(),
		Full: start == 1 && len(lines) == total, Offset: start, Limit: limitOf(in)}

	var text string
	switch {
	case total == 0:
		text = "The file exists but is empty."
	case start > total:
		lines := fmt.Sprintf("only %d lines", total)
		if total == 1 {
			lines = "only 1 line"
		}
		text = fmt.Sprintf("The file has %s, fewer than offset %d; nothing to show. Read from an offset of %d or less.", lines, start, total)
	default:
		text = numbered(lines, start)
		if end := start + len(lines) - 1; end < total {
			text += fmt.Sprintf("\n\n(Showing lines %d-%d of %d. Read on with offset %d.)", start, end, total, end+1)
		}
	}
	if tokens := len(text) / 4; tokens > MaxTokens {
		return nil, fmt.Errorf("the requested part of %s is about %d tokens, more than the %d allowed in one read. Read fewer lines with offset and limit, or use Grep to find what you need",
			in.FilePath, tokens, MaxTokens)
	}
	t.files.Record(entry)
	return &tool.Result{Content: []llm.ContentBlock{llm.TextBlock(text)}, Data: data}, nil
}

func limitOf(in Input) int {
	if in.Limit == nil {
		return 0
	}
	return *in.Limit
}

// numbered formats lines cat -n style: the number right-aligned in six
// columns, a tab, the line (cut at MaxLineChars).
func numbered(lines []string, start int) string {
	var sb strings.Builder
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		n := strconv.Itoa(start + i)
		for pad := 6 - len(n); pad > 0; pad-- {
			sb.WriteByte(' ')
		}
		sb.WriteString(n)
		sb.WriteByte('\t')
		sb.WriteString(cutLine(l))
	}
	return sb.String()
}

func cutLine(l string) string {
	if len(l) <= MaxLineChars || utf8.RuneCountInString(l) <= MaxLineChars {
		return l
	}
	i, n := 0, 0
	for i < len(l) && n < MaxLineChars {
		_, size := utf8.DecodeRuneInString(l[i:])
		i += size
		n++
	}
	return l[:i] + fmt.Sprintf(" … [line cut at %d characters]", MaxLineChars)
}

// splitLines splits text into lines without their endings; a final line
// ending does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// loadLines reads the whole file, decodes it and returns the lines asked
// for, the line count and the file's hash.
func loadLines(path string, start, limit int) ([]string, int, string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, "", err
	}
	if fsutil.IsBinary(b) {
		return nil, 0, "", fmt.Errorf("the file holds binary data and cannot be shown as text")
	}
	text, _, err := fsutil.DecodeText(b)
	if err != nil {
		return nil, 0, "", err
	}
	lines, total := lineWindow(text, start, limit)
	return lines, total, filestate.Hash(b), nil
}

// lineWindow returns lines start to start+limit-1 (1-based) of s, split
// as splitLines splits, and the number of lines. Only the lines asked for
// are cut out: a 200-line look at a 4,000-line file makes 200 strings,
// not 4,000.
func lineWindow(s string, start, limit int) ([]string, int) {
	if s == "" {
		return nil, 0
	}
	s = strings.TrimSuffix(s, "\n")
	total := strings.Count(s, "\n") + 1
	if start > total {
		return nil, total
	}
	i := 0
	for n := 1; n < start; n++ {
		i += strings.IndexByte(s[i:], '\n') + 1
	}
	end := min(total, start-1+limit)
	lines := make([]string, 0, max(end-start+1, 0))
	for n := start; n <= end; n++ {
		line := s[i:]
		if j := strings.IndexByte(line, '\n'); j >= 0 {
			line = line[:j]
		}
		i += len(line) + 1
		lines = append(lines, strings.TrimSuffix(line, "\r"))
	}
	return lines, total
}

// streamLines reads a large file line by line (as UTF-8), keeping only the
// lines asked for while hashing and counting all of it.
func streamLines(path string, start, limit int) ([]string, int, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	r := bufio.NewReaderSize(io.TeeReader(f, h), 64<<10)
	head, _ := r.Peek(8000)
	if fsutil.IsBinary(head) {
		return nil, 0, "", fmt.Errorf("the file holds binary data and cannot be shown as text")
	}
	var lines []string
	n := 0
	for {
		line, err := r.ReadSlice('\n')
		if len(line) > 0 || err == nil {
			n++
			if n >= start && n < start+limit {
				l := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
				lines = append(lines, cutLine(string(l)))
			}
		}
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: count it once, skip the rest.
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, 0, "", err
		}
	}
	return lines, n, hex.EncodeToString(h.Sum(nil)), nil
}

func humanSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// suggest names files in the same folder whose names are close to the
// missing one's (another extension, another case).
func suggest(p string) string {
	dir, base := filepath.Split(p)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	stem := strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))
	var close []string
	for _, e := range entries {
		name := e.Name()
		if strings.EqualFold(name, base) || strings.ToLower(strings.TrimSuffix(name, filepath.Ext(name))) == stem {
			close = append(close, filepath.Join(dir, name))
		}
		if len(close) == 3 {
			break
		}
	}
	if len(close) == 0 {
		return ""
	}
	return ". Did you mean " + strings.Join(close, " or ") + "?"
}
