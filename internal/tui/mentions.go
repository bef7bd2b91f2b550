package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"reins/internal/llm"
)

// Limits of what an @ mention attaches.
const (
	mentionMaxBytes   = 256 << 10
	mentionMaxEntries = 200
)

// mentionPaths finds "@path" and "@\"a path\"" mentions: '@' at the start
// or after white space or '('; trailing punctuation is not part of an
// unquoted path.
func mentionPaths(text string) []string {
	var out []string
	seen := map[string]bool{}
	rs := []rune(text)
	for i := 0; i < len(rs); i++ {
		if rs[i] != '@' || (i > 0 && !unicode.IsSpace(rs[i-1]) && rs[i-1] != '(') {
			continue
		}
		j := i + 1
		var p string
		if j < len(rs) && rs[j] == '"' {
			k := j + 1
			for k < len(rs) && rs[k] != '"' && rs[k] != '\n' {
				k++
			}
			if k >= len(rs) || rs[k] != '"' {
				continue
			}
			p, i = string(rs[j+1:k]), k
		} else {
			k := j
			for k < len(rs) && !unicode.IsSpace(rs[k]) {
				k++
			}
			p = strings.TrimRight(string(rs[j:k]), ".,;:!?)]}'\"")
			i = k
		}
		if p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// mentionBlocks reads the files and folders a prompt mentions, inside
// cwd, as text blocks to send after the prompt. Paths that do not exist
// are left to the model.
func mentionBlocks(text, cwd string) []llm.ContentBlock {
	var out []llm.ContentBlock
	for _, p := range mentionPaths(text) {
		abs := p
		if strings.HasPrefix(p, "~/") {
			if home, err := os.UserHomeDir(); err == nil {
				abs = filepath.Join(home, p[2:])
			}
		}
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, abs)
		}
		abs = filepath.Clean(abs)
		if rel, err := filepath.Rel(cwd, abs); err != nil || strings.HasPrefix(rel, "..") {
			continue // only the project's files are attached
		}
		fi, err := os.Stat(abs)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			out = append(out, llm.TextBlock(folderBlock(p, abs)))
		case fi.Mode().IsRegular():
			if b, ok := fileBlock(p, abs, fi.Size()); ok {
				out = append(out, llm.TextBlock(b))
			}
		}
	}
	return out
}

func fileBlock(name, abs string, size int64) (string, bool) {
	if size > mentionMaxBytes {
		return fmt.Sprintf("<file path=%q>\n[not attached: %d bytes is over the %d-byte limit; read it with a tool]\n</file>", name, size, mentionMaxBytes), true
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return "", false
	}
	if bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0 {
		return fmt.Sprintf("<file path=%q>\n[not attached: binary file]\n</file>", name), true
	}
	s := string(data)
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return fmt.Sprintf("<file path=%q>\n%s</file>", name, s), true
}

func folderBlock(name, abs string) string {
	ents, _ := os.ReadDir(abs)
	var names []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		names = append(names, n)
	}
	sort.Strings(names)
	more := ""
	if len(names) > mentionMaxEntries {
		more = fmt.Sprintf("\n[%d more entries]", len(names)-mentionMaxEntries)
		names = names[:mentionMaxEntries]
	}
	return fmt.Sprintf("<folder path=%q>\n%s%s\n</folder>", name, strings.Join(names, "\n"), more)
}

// isAttachment reports a text block added for a mention or a reminder,
// which the screen does not show as part of the prompt.
func isAttachment(text string) bool {
	return strings.HasPrefix(text, "<file path=") || strings.HasPrefix(text, "<folder path=") || strings.HasPrefix(text, "<system-reminder>") ||
		strings.HasPrefix(text, "<mcp-resource server=")
}
