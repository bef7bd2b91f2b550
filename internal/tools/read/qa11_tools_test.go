package read

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"image"
	"image/jpeg"
	"strings"
	"testing"
)

// An image file that is cut short or damaged is refused with an error
// instead of being sent: the API refuses such an image, and the refused
// tool result would fail every later request of the conversation. A
// whole image still reads.
func TestQA11DamagedImagesAreRefused(t *testing.T) {
	e := newEnv(t)
	good := pngBytes(t, 20, 10, true)
	webp := func(declared, actual int) []byte {
		b := make([]byte, actual)
		copy(b, "RIFF")
		binary.LittleEndian.PutUint32(b[4:8], uint32(declared-8))
		copy(b[8:], "WEBPVP8 ")
		return b
	}
	for _, tt := range []struct {
		name string
		data []byte
		want string // "" reads
	}{
		{"whole.png", good, ""},
		{"cut.png", good[:len(good)/2], "damaged or cut short"},
		{"header-only.png", good[:8], "damaged or cut short"},
		{"cut.jpg", append([]byte{0xff, 0xd8, 0xff, 0xe0}, make([]byte, 20)...), "damaged or cut short"},
		{"cut.gif", []byte("GIF89a\x10\x00\x10\x00"), "damaged or cut short"},
		{"cut.webp", webp(4000, 100), "cut short (100 of 4000 bytes)"},
		{"whole.webp", webp(64, 64), ""},
	} {
		p := e.write(t, tt.name, tt.data)
		res, err := e.read(t, map[string]any{"file_path": p})
		if tt.want == "" {
			if err != nil || len(res.Content) != 1 || res.Content[0].Source == nil {
				t.Errorf("%s: %v, want the image", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), tt.name) {
			t.Errorf("%s: %v, want an error naming the file and saying %q", tt.name, err, tt.want)
		}
	}
}

// A notebook's image output that is damaged is named and left out, and
// one labelled PNG that holds a JPEG is sent as a JPEG; the cells around
// them still read.
func TestQA11NotebookImageOutputsAreCheckedBeforeTheyAreSent(t *testing.T) {
	e := newEnv(t)
	good := pngBytes(t, 8, 8, true)
	cut := base64.StdEncoding.EncodeToString(good[:len(good)/2])
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, image.NewGray(image.Rect(0, 0, 4, 4)), nil); err != nil {
		t.Fatal(err)
	}
	mislabelled := base64.StdEncoding.EncodeToString(jb.Bytes())
	nb := `{"cells":[{"cell_type":"code","execution_count":1,"metadata":{},"source":"plot()","outputs":[
 {"output_type":"display_data","data":{"image/png":"` + cut + `"},"metadata":{}},
 {"output_type":"display_data","data":{"image/png":"` + mislabelled + `"},"metadata":{}},
 {"output_type":"stream","name":"stdout","text":["after\n"]}]}],
 "metadata":{},"nbformat":4,"nbformat_minor":4}`
	p := e.write(t, "plots.ipynb", []byte(nb))
	res, err := e.read(t, map[string]any{"file_path": p})
	if err != nil {
		t.Fatal(err)
	}
	var images []string
	var text strings.Builder
	for _, b := range res.Content {
		if b.Source != nil {
			images = append(images, b.Source.MediaType)
		}
		text.WriteString(b.Text)
	}
	if len(images) != 1 || images[0] != "image/jpeg" {
		t.Errorf("images sent = %v, want only the JPEG, as image/jpeg", images)
	}
	if !strings.Contains(text.String(), "damaged or cut short") || !strings.Contains(text.String(), "not shown") || !strings.Contains(text.String(), "after") {
		t.Errorf("text = %q, want the damaged output named and the stream output kept", text.String())
	}
}

// checkImage takes any bytes without panicking, and an image it passes
// decodes.
func FuzzCheckImage(f *testing.F) {
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, image.NewGray(image.Rect(0, 0, 3, 3)), nil); err != nil {
		f.Fatal(err)
	}
	f.Add(jb.Bytes(), "image/jpeg")
	f.Add([]byte("GIF89a\x01\x00\x01\x00"), "image/gif")
	f.Add([]byte("RIFF\x10\x00\x00\x00WEBPVP8 "), "image/webp")
	f.Fuzz(func(t *testing.T, b []byte, media string) {
		err := checkImage(b, media)
		if err == nil && media != "image/webp" {
			if _, _, derr := image.Decode(bytes.NewReader(b)); derr != nil {
				t.Errorf("checkImage passed bytes that do not decode: %v", derr)
			}
		}
	})
}
