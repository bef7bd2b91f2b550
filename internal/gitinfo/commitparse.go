package gitinfo

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Line lengths of the fixed commit header lines.
const (
	treeLineLen   = len("tree ") + hexLen + 1
	parentLineLen = len("parent ") + hexLen + 1
)

// parseCommit reads what the log needs from a commit object: the
// parents, the committer timestamp and the subject. It follows git's
// parse_commit_buffer: a "tree" line, then "parent" lines, then the
// author and committer lines. A commit git would read differently
// depending on its version, or re-encode, is errUnsupported.
func parseCommit(data []byte) (*logCommit, error) {
	if len(data) <= treeLineLen || !bytes.HasPrefix(data, []byte("tree ")) || data[treeLineLen-1] != '\n' {
		return nil, errors.New("no tree line")
	}
	if _, ok := parseOID(data[len("tree ") : treeLineLen-1]); !ok {
		return nil, errors.New("bad tree id")
	}
	c := &logCommit{}
	rest := data[treeLineLen:]
	for len(rest) > parentLineLen-1 && bytes.HasPrefix(rest, []byte("parent ")) {
		if len(rest) <= parentLineLen || rest[parentLineLen-1] != '\n' {
			return nil, errors.New("bad parent line")
		}
		p, ok := parseOID(rest[len("parent ") : parentLineLen-1])
		if !ok {
			return nil, errors.New("bad parent id")
		}
		c.parents = append(c.parents, p)
		rest = rest[parentLineLen:]
	}
	date, err := committerDate(rest)
	if err != nil {
		return nil, err
	}
	c.date = date
	if enc, ok := headerValue(data, "encoding"); ok {
		if e := strings.ToLower(enc); e != "utf-8" && e != "utf8" {
			return nil, fmt.Errorf("encoding %q: %w", enc, errUnsupported)
		}
	}
	c.subject = commitSubject(data)
	return c, nil
}

// committerDate reads the timestamp of the committer line that must
// follow the author line at the start of rest. Missing lines give 0, as
// in git. Lines that git versions read differently (a ">" in a name, no
// line after the committer line, a sign or no digits after the e-mail)
// are errUnsupported.
func committerDate(rest []byte) (uint64, error) {
	if len(rest) <= len("author") || !bytes.HasPrefix(rest, []byte("author")) {
		return 0, nil
	}
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		return 0, nil
	}
	rest = rest[i+1:]
	if len(rest) <= len("committer") || !bytes.HasPrefix(rest, []byte("committer")) {
		return 0, nil
	}
	eol := bytes.IndexByte(rest, '\n')
	if eol < 0 {
		return 0, nil
	}
	line := rest[:eol]
	if bytes.Count(line, []byte(">")) != 1 || eol+1 >= len(rest) {
		return 0, fmt.Errorf("committer line %q: %w", line, errUnsupported)
	}
	after := bytes.TrimLeft(line[bytes.IndexByte(line, '>')+1:], " \t")
	var date uint64
	digits := 0
	for _, b := range after {
		if b < '0' || b > '9' {
			break
		}
		if date > (1<<63)/10 {
			return 0, fmt.Errorf("committer date in %q: %w", line, errUnsupported)
		}
		date = date*10 + uint64(b-'0')
		digits++
	}
	if digits == 0 {
		return 0, fmt.Errorf("committer date in %q: %w", line, errUnsupported)
	}
	return date, nil
}

// headerValue returns the value of the first header line "<key> <value>"
// before the blank line that ends the header.
func headerValue(data []byte, key string) (string, bool) {
	for line := range bytes.Lines(data) {
		if len(line) == 1 && line[0] == '\n' {
			break
		}
		if v, ok := bytes.CutPrefix(line, []byte(key+" ")); ok {
			return string(bytes.TrimSuffix(v, []byte("\n"))), true
		}
	}
	return "", false
}

// commitSubject is git's %s, which --oneline prints: the message starts
// after the header's blank line (the commit text stops at a NUL byte);
// blank lines at its start are skipped; then the lines up to the next
// blank line are joined with single spaces, each without its trailing
// white space (space, tab, CR, LF; leading white space stays).
func commitSubject(data []byte) string {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	msg := data[len(data):]
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			break // no blank line: no message
		}
		if j == 0 {
			msg = data[i+1:]
			break
		}
		i += j + 1
	}
	var b strings.Builder
	started := false
	for len(msg) > 0 {
		line := msg
		if j := bytes.IndexByte(msg, '\n'); j >= 0 {
			line, msg = msg[:j], msg[j+1:]
		} else {
			msg = nil
		}
		line = bytes.TrimRight(line, " \t\r")
		if len(line) == 0 {
			if started {
				break
			}
			continue
		}
		if started {
			b.WriteByte(' ')
		}
		b.Write(line)
		started = true
	}
	return b.String()
}
