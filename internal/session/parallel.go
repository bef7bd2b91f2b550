package session

import (
	"bytes"
	"io"
	"runtime"
	"sync"
)

// parallelMin is the file size from which Load decodes on several cores.
const parallelMin = 1 << 20

// batchBytes is about how much text one decoding batch holds.
const batchBytes = 256 << 10

// batch is a run of consecutive lines and, once decoded, their entries.
type batch struct {
	buf   []byte
	lines []lineRef
	out   []decoded
	done  chan struct{}
	free  chan []byte // where buf goes back once decoded
}

type lineRef struct {
	start, end int
	n          int
	complete   bool
}

type decoded struct {
	e   loadEntry
	err error
}

// decodeParallel reads r's lines in order, decodes batches of them on
// GOMAXPROCS workers, and applies the results to ld in line order. At
// most a few batches are in memory at once, so the file is never held
// whole, let alone twice. Every goroutine it starts has ended when it
// returns.
func decodeParallel(r io.Reader, ld *loader) error {
	workers := max(runtime.GOMAXPROCS(0), 1)
	work := make(chan *batch, workers)
	ordered := make(chan *batch, 2*workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for b := range work {
				b.decode()
			}
		})
	}
	var readErr error
	// Batch buffers are reused: at most the batches in flight are alive.
	free := make(chan []byte, 3*workers+1)
	newBatch := func() *batch {
		b := &batch{done: make(chan struct{}), free: free}
		select {
		case b.buf = <-free:
		default:
			b.buf = make([]byte, 0, batchBytes+batchBytes/4)
		}
		return b
	}
	wg.Go(func() {
		defer close(ordered)
		defer close(work)
		cur := newBatch()
		flush := func() {
			if len(cur.lines) == 0 {
				return
			}
			ordered <- cur
			work <- cur
			cur = newBatch()
		}
		readErr = eachLine(r, func(line []byte, n int, complete bool) error {
			if len(bytes.TrimSpace(line)) == 0 {
				cur.lines = append(cur.lines, lineRef{n: n, start: -1})
				return nil
			}
			start := len(cur.buf)
			cur.buf = append(cur.buf, line...)
			cur.lines = append(cur.lines, lineRef{start: start, end: len(cur.buf), n: n, complete: complete})
			if len(cur.buf) >= batchBytes {
				flush()
			}
			return nil
		})
		flush()
	})
	for b := range ordered {
		<-b.done
		for i, l := range b.lines {
			if l.start < 0 {
				ld.t.Lines = l.n
				continue
			}
			ld.apply(&b.out[i].e, b.out[i].err, l.n, l.complete)
		}
	}
	wg.Wait()
	return readErr
}

func (b *batch) decode() {
	b.out = make([]decoded, len(b.lines))
	for i, l := range b.lines {
		if l.start >= 0 {
			b.out[i].e, b.out[i].err = decodeEntry(b.buf[l.start:l.end])
		}
	}
	select {
	case b.free <- b.buf[:0]:
	default:
	}
	b.buf = nil
	close(b.done)
}
