package permission

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/bmatcuk/doublestar/v4"
)

// pathPattern is a compiled Read/Edit specifier: a base folder and
// doublestar patterns relative to it.
type pathPattern struct {
	base     string
	patterns []string
}

// compilePath turns a gitignore-style specifier into a pathPattern.
// root is the rule's settings root, cwd the working folder.
func compilePath(spec, root, cwd, home string) (pathPattern, error) {
	var base, pat string
	switch {
	case strings.HasPrefix(spec, "//"):
		base, pat = "/", strings.TrimLeft(spec, "/")
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		base, pat = home, strings.TrimPrefix(strings.TrimPrefix(spec, "~"), "/")
	case strings.HasPrefix(spec, "/"):
		base, pat = root, strings.TrimPrefix(spec, "/")
	case spec == "." || strings.HasPrefix(spec, "./"):
		base, pat = cwd, strings.TrimPrefix(strings.TrimPrefix(spec, "."), "/")
	default:
		base, pat = cwd, spec
		// A pattern with no slash but a trailing one matches at any
		// depth, as in .gitignore.
		if !strings.Contains(strings.TrimSuffix(pat, "/"), "/") {
			pat = "**/" + pat
		}
	}
	if base == "" {
		base = cwd
	}
	pat = strings.TrimSuffix(pat, "/")
	pp := pathPattern{base: filepath.Clean(base)}
	if pat == "" || pat == "**" {
		pp.patterns = []string{"**"}
		return pp, nil
	}
	if !doublestar.ValidatePattern(pat) {
		return pp, errBadPattern
	}
	// A matching folder covers everything in it.
	pp.patterns = []string{pat, pat + "/**"}
	return pp, nil
}

type patternError string

func (e patternError) Error() string { return string(e) }

const errBadPattern = patternError("invalid path pattern")

// match reports whether the absolute path matches.
func (pp pathPattern) match(abs string) bool {
	rel, err := filepath.Rel(pp.base, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, p := range pp.patterns {
		if p == "**" {
			return true
		}
		if rel == "." {
			continue
		}
		if ok, _ := doublestar.Match(p, rel); ok {
			return true
		}
	}
	return false
}

// within reports whether abs is dir or below it.
func within(abs, dir string) bool {
	if dir == "" {
		return false
	}
	if abs == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(abs, dir+"/")
}

// protectedDirs are folders whose files configure tools that run code;
// editing them always asks.
var protectedDirs = map[string]bool{".git": true, ".claude": true, ".reins": true, ".vscode": true, ".idea": true}

// protectedFiles are start-up and configuration files that run code or
// change how tools behave; editing them always asks.
var protectedFiles = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true,
	".profile": true, ".zshrc": true, ".zshenv": true, ".zprofile": true, ".zlogin": true,
	".zlogout": true, ".cshrc": true, ".tcshrc": true, ".login": true, ".kshrc": true,
	".inputrc": true, "config.fish": true, ".gitconfig": true, ".gitmodules": true,
	".ripgreprc": true, ".mcp.json": true, ".claude.json": true, ".envrc": true,
}

// protectedPath reports whether editing abs must ask, and why.
func protectedPath(abs string) (bool, string) {
	parts := strings.Split(filepath.ToSlash(abs), "/")
	for i := 0; i < len(parts); i++ {
		p := parts[i]
		if p == ".claude" && i+3 < len(parts) && parts[i+1] == "worktrees" && parts[i+2] != "" && parts[i+2] != "." && parts[i+2] != ".." {
			// A file inside one of the git worktrees reins makes under
			// .claude/worktrees/<name>/ (isolated sub-agents, --worktree):
			// that folder is a checkout of its own, and only what is
			// protected inside it is.
			i += 2
			continue
		}
		if p == ".claude" && i+3 < len(parts) && (parts[i+1] == "agent-memory" || parts[i+1] == "agent-memory-local") &&
			parts[i+2] != "" && parts[i+2] != "." && parts[i+2] != ".." {
			// A sub-agent's persistent memory (.claude/agent-memory/<agent>/):
			// Markdown notes the agent keeps for itself, which configure
			// nothing that runs.
			i += 2
			continue
		}
		if k := strings.ToLower(skeleton(p)); k != p && (protectedDirs[k] || protectedFiles[k]) {
			// A look-alike, or the name in other letter case, which a
			// case-insensitive file system (macOS, Windows) opens as the
			// protected one.
			return true, fmt.Sprintf("%q looks like the protected name %s", p, k)
		}
		if protectedDirs[p] && i < len(parts)-1 {
			return true, p + "/ holds configuration that can run code"
		}
		if protectedDirs[p] && i == len(parts)-1 {
			return true, p + " is a protected folder"
		}
	}
	if base := parts[len(parts)-1]; protectedFiles[base] || protectedFiles[strings.ToLower(base)] {
		return true, base + " is a start-up or configuration file that can run code"
	}
	return false, ""
}

// suspicious reports characters that make text look different from what
// runs or what is written: control and format characters (zero-width,
// bidirectional overrides) and spaces other than the ASCII ones.
func suspicious(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20 || r == 0x7f:
			return r, true
		case r < 0x80:
		case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Cc, r), unicode.Is(unicode.Co, r):
			return r, true
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			return r, true
		case r == 0xfffd:
			return r, true
		}
	}
	return 0, false
}

// nonASCIIName reports whether a program name holds anything but ASCII,
// such as a Cyrillic letter that looks like a Latin one.
func nonASCIIName(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// absPath makes p absolute against dir and cleans it; "~" is the home
// folder.
func absPath(p, dir, home string) string {
	switch {
	case p == "~":
		p = home
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(home, p[2:])
	case !filepath.IsAbs(p):
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// confusables maps letters that look like ASCII ones (Cyrillic, Greek,
// dotless i) to those letters.
var confusables = map[rune]rune{
	'а': 'a', 'е': 'e', 'і': 'i', 'о': 'o', 'р': 'p', 'с': 'c', 'ѕ': 's', 'х': 'x',
	'у': 'y', 'ј': 'j', 'ԁ': 'd', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ɡ': 'g', 'ı': 'i',
	'α': 'a', 'ε': 'e', 'ι': 'i', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'ν': 'v',
	'κ': 'k', 'А': 'A', 'Е': 'E', 'І': 'I', 'О': 'O', 'Р': 'P', 'С': 'C', 'Ѕ': 'S',
	'Х': 'X', 'Т': 'T', 'Н': 'H', 'В': 'B', 'М': 'M', 'К': 'K',
}

// skeleton replaces look-alike letters and fullwidth forms with ASCII, and
// drops invisible format characters, so that ".gіt" (Cyrillic і) compares
// equal to ".git".
func skeleton(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E:
			b.WriteRune(r - 0xFF01 + 0x21)
		case unicode.Is(unicode.Cf, r):
		default:
			if a, ok := confusables[r]; ok {
				r = a
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
