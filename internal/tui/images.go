package tui

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"reins/internal/llm"
)

// maxPastedImage is the largest image file a pasted path attaches: the
// API takes images of up to 5 MB once base64-encoded. A larger one is
// pasted as its path, for the model to read (Read scales it down).
const maxPastedImage = 5 << 20 * 3 / 4

// pastedImage is an image attached by pasting (or dropping) its path.
type pastedImage struct {
	path  string
	media string
	data  []byte
}

var imageRef = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[Image #(\d+)\]`) })

// imagePaths reads pasted text as the paths of image files, the way
// terminals paste a dropped file: one or more paths, each plain,
// 'quoted', "quoted", with backslash-escaped spaces, or a file:// URL.
// It returns the images when every path is a readable PNG, JPEG, GIF or
// WebP file of at most maxPastedImage bytes, and nil otherwise (the text
// is then pasted as it is).
func imagePaths(text, cwd string) []pastedImage {
	words, ok := shellWords(strings.TrimSpace(text))
	if !ok || len(words) == 0 || len(words) > 20 {
		return nil
	}
	var out []pastedImage
	for _, w := range words {
		if strings.HasPrefix(w, "file://") {
			u, err := url.Parse(w)
			if err != nil || (u.Host != "" && u.Host != "localhost") {
				return nil
			}
			w = u.Path
		}
		if strings.HasPrefix(w, "~/") {
			home, err := os.UserHomeDir()
			if err != nil {
				return nil
			}
			w = filepath.Join(home, w[2:])
		}
		if !filepath.IsAbs(w) {
			w = filepath.Join(cwd, w)
		}
		switch strings.ToLower(filepath.Ext(w)) {
		case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		default:
			return nil
		}
		fi, err := os.Stat(w)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() > maxPastedImage {
			return nil
		}
		data, err := os.ReadFile(w)
		if err != nil {
			return nil
		}
		media := http.DetectContentType(data)
		switch media {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
		default:
			return nil
		}
		out = append(out, pastedImage{path: w, media: media, data: data})
	}
	return out
}

// shellWords splits s into words as a shell would for quoting and
// backslash escapes (no expansion). ok is false for an unclosed quote.
func shellWords(s string) (words []string, ok bool) {
	var cur strings.Builder
	in := false // inside a word
	var quote rune
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' && i+1 < len(rs) && strings.ContainsRune(`"\$`+"`", rs[i+1]) {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			in = true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		words = append(words, cur.String())
	}
	return words, true
}

// pasteImages puts an "[Image #N]" placeholder in the input for each
// image; the images go with the prompt when it is sent.
func (e *editor) pasteImages(imgs []pastedImage) {
	var refs []string
	for _, img := range imgs {
		e.imageN++
		e.images[e.imageN] = img
		refs = append(refs, fmt.Sprintf("[Image #%d]", e.imageN))
	}
	if e.pos > 0 && e.buf[e.pos-1] != ' ' && e.buf[e.pos-1] != '\n' {
		e.insert(" ")
	}
	e.insert(strings.Join(refs, " ") + " ")
}

// imageBlocks are the image blocks of the images the text still refers
// to, in the order of their placeholders.
func (e *editor) imageBlocks(text string) []llm.ContentBlock {
	if len(e.images) == 0 {
		return nil
	}
	var out []llm.ContentBlock
	seen := map[int]bool{}
	for _, m := range imageRef().FindAllStringSubmatch(text, -1) {
		n, _ := strconv.Atoi(m[1])
		img, ok := e.images[n]
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, llm.ContentBlock{Type: llm.BlockImage, Source: &llm.Source{
			Type: "base64", MediaType: img.media, Data: base64.StdEncoding.EncodeToString(img.data)}})
	}
	return out
}
