package llm

import (
	"context"
	"errors"
	"io"
)

// Complete sends req and reads the response to its end: the reply for a
// side call that needs no streaming (a summary, a verdict). When the
// stream fails after it started, the part received so far is returned
// with the error, so that its usage can still be accounted.
func Complete(ctx context.Context, p Provider, req *Request) (*Message, error) {
	st, err := p.Stream(ctx, req)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var acc Accumulator
	for {
		ev, err := st.Next()
		if errors.Is(err, io.EOF) {
			return acc.Message(), nil
		}
		if err != nil {
			return acc.Message(), err
		}
		if _, _, err := acc.Add(ev); err != nil {
			return acc.Message(), err
		}
	}
}
