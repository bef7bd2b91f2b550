package webfetch

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"
)

// toUTF8 decodes a fetched body to UTF-8. The charset comes from the
// Content-Type header, else a byte-order mark, else (for HTML) a <meta>
// charset declaration near the top; UTF-8 that decodes cleanly is taken
// as it is. Latin-1 and Windows-1252 (which HTML treats as one) are
// decoded, as are UTF-16 with a byte-order mark; any other charset, and
// bytes that are not valid in the one named, become U+FFFD. Pages in
// other legacy encodings are rare enough on today's web that a readable
// approximation is the right trade for not carrying conversion tables.
func toUTF8(body []byte, contentType string, html bool) string {
	cs := charsetOf(contentType)
	switch {
	case bytes.HasPrefix(body, []byte("\xef\xbb\xbf")):
		return strings.ToValidUTF8(string(body[3:]), "\uFFFD")
	case bytes.HasPrefix(body, []byte("\xff\xfe")):
		return decodeUTF16(body[2:], false)
	case bytes.HasPrefix(body, []byte("\xfe\xff")):
		return decodeUTF16(body[2:], true)
	}
	if cs == "" && html {
		cs = metaCharset(body[:min(len(body), 1024)])
	}
	switch cs {
	case "iso-8859-1", "latin1", "l1", "iso8859-1", "iso_8859-1", "windows-1252", "cp1252", "us-ascii", "ascii":
		if cs == "us-ascii" || cs == "ascii" {
			if utf8.Valid(body) {
				return string(body)
			}
		}
		return decode1252(body)
	case "", "utf-8", "utf8", "unicode-1-1-utf-8":
		if utf8.Valid(body) || cs != "" {
			return strings.ToValidUTF8(string(body), "\uFFFD")
		}
		// Nothing declared and not UTF-8: HTML's fallback.
		return decode1252(body)
	}
	return strings.ToValidUTF8(string(body), "\uFFFD")
}

// charsetOf reads the charset parameter of a Content-Type, lower-cased.
func charsetOf(contentType string) string {
	if contentType == "" {
		return ""
	}
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		// A header like "text/html;charset=utf-8;" still names it.
		i := strings.Index(strings.ToLower(contentType), "charset=")
		if i < 0 {
			return ""
		}
		v := contentType[i+len("charset="):]
		if j := strings.IndexAny(v, "; "); j >= 0 {
			v = v[:j]
		}
		return strings.ToLower(strings.Trim(v, `"'`))
	}
	return strings.ToLower(strings.TrimSpace(params["charset"]))
}

// metaCharset finds <meta charset="x"> or <meta http-equiv="Content-Type"
// content="...; charset=x"> in the start of a page.
func metaCharset(head []byte) string {
	lower := bytes.ToLower(head)
	for off := 0; ; {
		i := bytes.Index(lower[off:], []byte("<meta"))
		if i < 0 {
			return ""
		}
		start := off + i
		end := bytes.IndexByte(lower[start:], '>')
		if end < 0 {
			return ""
		}
		tag := string(lower[start : start+end])
		off = start + end
		j := strings.Index(tag, "charset")
		if j < 0 {
			continue
		}
		v := strings.TrimLeft(tag[j+len("charset"):], " \t\n\r")
		if !strings.HasPrefix(v, "=") {
			continue
		}
		v = strings.TrimLeft(v[1:], " \t\n\r\"'")
		if k := strings.IndexAny(v, "\"'; \t\n\r/>"); k >= 0 {
			v = v[:k]
		}
		if v != "" {
			return v
		}
	}
}

// cp1252 maps the bytes 0x80–0x9F of Windows-1252 (the rest is Latin-1);
// zero marks the five undefined bytes.
var cp1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

func decode1252(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		switch {
		case c < 0x80:
			sb.WriteByte(c)
		case c < 0xA0:
			if r := cp1252[c-0x80]; r != 0 {
				sb.WriteRune(r)
			} else {
				sb.WriteRune(rune(c))
			}
		default:
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}

func decodeUTF16(b []byte, bigEndian bool) string {
	var sb strings.Builder
	for i := 0; i+1 < len(b); i += 2 {
		u := rune(b[i]) | rune(b[i+1])<<8
		if bigEndian {
			u = rune(b[i])<<8 | rune(b[i+1])
		}
		if u >= 0xD800 && u < 0xDC00 && i+3 < len(b) {
			lo := rune(b[i+2]) | rune(b[i+3])<<8
			if bigEndian {
				lo = rune(b[i+2])<<8 | rune(b[i+3])
			}
			if lo >= 0xDC00 && lo < 0xE000 {
				sb.WriteRune(0x10000 + (u-0xD800)<<10 + (lo - 0xDC00))
				i += 2
				continue
			}
		}
		if u >= 0xD800 && u < 0xE000 {
			u = 0xFFFD
		}
		sb.WriteRune(u)
	}
	return sb.String()
}
