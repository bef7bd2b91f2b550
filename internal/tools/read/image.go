package read

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif" // decoder for GIF images
	"image/jpeg"
	"image/png"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"reins/internal/filestate"
	"reins/internal/llm"
	"reins/internal/tool"
)

// ImageData is the structured result of an image read ({type:"image"}).
type ImageData struct {
	Type string    `json:"type"`
	File ImageFile `json:"file"`
}

// ImageFile describes the image sent, with Claude Code's names.
type ImageFile struct {
	Base64       string      `json:"base64"`
	Type         string      `json:"type"` // media type
	OriginalSize int64       `json:"originalSize"`
	Dimensions   *Dimensions `json:"dimensions,omitempty"`
}

// Dimensions are an image's size before and after scaling.
type Dimensions struct {
	OriginalWidth  int `json:"originalWidth"`
	OriginalHeight int `json:"originalHeight"`
	DisplayWidth   int `json:"displayWidth"`
	DisplayHeight  int `json:"displayHeight"`
}

// imageType returns the media type for an image extension Read shows, or
// "".
func imageType(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	}
	return ""
}

func (t *Tool) readImage(in Input, real string, info fs.FileInfo) (*tool.Result, error) {
	b, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", in.FilePath, err)
	}
	if len(b) == 0 {
		return nil, fmt.Errorf("%s is empty, not an image", in.FilePath)
	}
	media := http.DetectContentType(b)
	if imageType("x."+strings.TrimPrefix(media, "image/")) == "" {
		return nil, fmt.Errorf("%s has an image extension but its content is not PNG, JPEG, GIF or WebP (it looks like %s)", in.FilePath, media)
	}
	if err := checkImage(b, media); err != nil {
		return nil, fmt.Errorf("%s cannot be shown: %w", in.FilePath, err)
	}
	entry := filestate.EntryFor(real, b, info)
	var dims *Dimensions
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(b)); err == nil {
		dims = &Dimensions{cfg.Width, cfg.Height, cfg.Width, cfg.Height}
	}
	tooWide := dims != nil && max(dims.OriginalWidth, dims.OriginalHeight) > MaxImageSide
	if len(b) > t.maxImageBytes || tooWide {
		small, smallMedia, w, h, err := shrink(b, media, t.maxImageBytes)
		if err != nil {
			return nil, fmt.Errorf("%s is %s, larger than the %s or %d pixels a side an image may be, and it could not be scaled down (%v)",
				in.FilePath, imageSize(len(b), dims), humanSize(int64(t.maxImageBytes)), MaxImageSide, err)
		}
		b, media = small, smallMedia
		if dims != nil {
			dims.DisplayWidth, dims.DisplayHeight = w, h
		}
	}
	enc := base64.StdEncoding.EncodeToString(b)
	t.files.Record(entry)
	block := llm.ContentBlock{Type: llm.BlockImage, Source: &llm.Source{Type: "base64", MediaType: media, Data: enc}}
	return &tool.Result{
		Content: []llm.ContentBlock{block},
		Data:    &ImageData{Type: "image", File: ImageFile{Base64: enc, Type: media, OriginalSize: info.Size(), Dimensions: dims}},
	}, nil
}

// checkImage reports an image the API would refuse: a PNG, JPEG or GIF
// that does not decode (cut short, damaged), or a WebP file shorter than
// its header says. Such an image in a tool result would fail that
// request and every later one of the conversation.
func checkImage(b []byte, media string) error {
	if media == "image/webp" {
		// RIFF <size of the rest, little-endian> WEBP
		if len(b) < 16 || string(b[8:12]) != "WEBP" {
			return errors.New("the WebP file is damaged (its header is incomplete)")
		}
		if want := int64(binary.LittleEndian.Uint32(b[4:8])) + 8; int64(len(b)) < want {
			return fmt.Errorf("the WebP file is cut short (%d of %d bytes)", len(b), want)
		}
		return nil
	}
	if _, _, err := image.Decode(bytes.NewReader(b)); err != nil {
		return fmt.Errorf("the %s image is damaged or cut short (%v)", strings.TrimPrefix(media, "image/"), err)
	}
	return nil
}

// fitImage returns a base64 image, scaled down as Read scales image
// files when it is over limit bytes or MaxImageSide pixels a side, with
// its media type. Data that is not base64, or an image the API would
// refuse (checkImage), is an error.
func fitImage(b64, media string, limit int) (string, string, error) {
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", "", fmt.Errorf("an image output is not valid base64 (%v)", err)
	}
	if m := http.DetectContentType(b); m != media && imageType("x."+strings.TrimPrefix(m, "image/")) != "" {
		// Labelled one type, holding another: the API wants the true one.
		media = m
	}
	if err := checkImage(b, media); err != nil {
		return "", "", fmt.Errorf("an image output cannot be shown: %w", err)
	}
	if strings.ContainsAny(b64, "\r\n") {
		b64 = base64.StdEncoding.EncodeToString(b) // the API takes base64 without line breaks
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || (len(b) <= limit && max(cfg.Width, cfg.Height) <= MaxImageSide) {
		return b64, media, nil
	}
	small, smallMedia, _, _, err := shrink(b, media, limit)
	if err != nil {
		return "", "", fmt.Errorf("an image output of %s (%d×%d pixels) could not be scaled down (%v)", humanSize(int64(len(b))), cfg.Width, cfg.Height, err)
	}
	return base64.StdEncoding.EncodeToString(small), smallMedia, nil
}

// imageSize describes an image for an error: its bytes and, when known,
// its pixels.
func imageSize(n int, dims *Dimensions) string {
	if dims == nil {
		return humanSize(int64(n))
	}
	return fmt.Sprintf("%s (%d×%d pixels)", humanSize(int64(n)), dims.OriginalWidth, dims.OriginalHeight)
}

// shrink scales a PNG, JPEG or GIF down to at most MaxImageSide pixels a
// side and until it fits limit bytes. A PNG stays a PNG when that fits
// (screenshots of text keep their sharp edges); otherwise the image is
// re-encoded as JPEG, scaled further until it fits. It returns the image,
// its media type and its size.
func shrink(b []byte, media string, limit int) ([]byte, string, int, int, error) {
	img, _, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, "", 0, 0, err
	}
	bounds := img.Bounds()
	w, h := bounds.Dx(), bounds.Dy()
	scale := 1.0
	if m := max(w, h); m > MaxImageSide {
		scale = MaxImageSide / float64(m)
	}
	if media == "image/png" {
		sw, sh := max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
		var buf bytes.Buffer
		if err := png.Encode(&buf, resize(img, sw, sh)); err == nil && buf.Len() <= limit {
			return buf.Bytes(), media, sw, sh, nil
		}
	}
	for range 8 {
		sw, sh := max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, resize(img, sw, sh), &jpeg.Options{Quality: 80}); err != nil {
			return nil, "", 0, 0, err
		}
		if buf.Len() <= limit {
			return buf.Bytes(), "image/jpeg", sw, sh, nil
		}
		scale *= 0.7
	}
	return nil, "", 0, 0, fmt.Errorf("still too large after scaling")
}

// resize scales img to w×h by averaging the source pixels under each
// target pixel, over a white background.
func resize(img image.Image, w, h int) image.Image {
	src := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	sw, sh := src.Dx(), src.Dy()
	for y := range h {
		y0 := src.Min.Y + y*sh/h
		y1 := max(y0+1, src.Min.Y+(y+1)*sh/h)
		for x := range w {
			x0 := src.Min.X + x*sw/w
			x1 := max(x0+1, src.Min.X+(x+1)*sw/w)
			var r, g, b, n uint64
			// Sample at most 4×4 source pixels per target pixel.
			stepY, stepX := max(1, (y1-y0)/4), max(1, (x1-x0)/4)
			for sy := y0; sy < y1; sy += stepY {
				for sx := x0; sx < x1; sx += stepX {
					cr, cg, cb, ca := img.At(sx, sy).RGBA()
					// Composite over white.
					cr += (0xffff - ca)
					cg += (0xffff - ca)
					cb += (0xffff - ca)
					r, g, b, n = r+uint64(cr), g+uint64(cg), b+uint64(cb), n+1
				}
			}
			dst.Set(x, y, color.RGBA64{uint16(r / n), uint16(g / n), uint16(b / n), 0xffff})
		}
	}
	return dst
}
