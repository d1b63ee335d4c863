package targets

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// Bounds of what the harness reads of an MCP server's stdout.
const (
	// maxStdoutLine bounds one line; a longer one is noise, and dropped.
	maxStdoutLine = 4 << 20
	// noiseLines and noiseLineBytes bound what is kept of the noise.
	noiseLines     = 16
	noiseLineBytes = 256
)

// stdoutTap reads an MCP server's stdout line by line: JSON-RPC messages
// go on to the client; every other line is noise, kept (the first
// noiseLines, clipped) and captured for the call in flight. It is safe for
// concurrent use.
type stdoutTap struct {
	out     *io.PipeWriter
	capture *capture

	mu    sync.Mutex
	noise []string
	extra int // noise lines not kept
}

// newStdoutTap returns a tap and the reader the client reads messages
// from.
func newStdoutTap(c *capture) (*stdoutTap, io.ReadCloser) {
	r, w := io.Pipe()
	return &stdoutTap{out: w, capture: c}, r
}

// run reads in until it ends, then closes the client's reader.
func (t *stdoutTap) run(in io.Reader) {
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := readLine(br, maxStdoutLine)
		long := errors.Is(err, errLongLine)
		if len(line) > 0 || long {
			t.take(line, long)
		}
		if err != nil && !long {
			t.out.CloseWithError(err)
			return
		}
	}
}

// take passes one line on to the client, or keeps it as noise.
func (t *stdoutTap) take(line []byte, long bool) {
	trimmed := bytes.TrimSpace(line)
	if !long && isJSONRPC(trimmed) {
		// A client that has gone makes Write fail: stdout is still drained.
		_, _ = t.out.Write(append(trimmed, '\n'))
		return
	}
	if long {
		line = append(line, "… (a line longer than the harness reads)"...)
	}
	t.capture.add(line)
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.noise) >= noiseLines {
		t.extra++
		return
	}
	t.noise = append(t.noise, string(clip(line, noiseLineBytes)))
}

// lines returns the noise kept so far.
func (t *stdoutTap) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.noise...)
	if t.extra > 0 {
		out = append(out, "… and more lines")
	}
	return out
}

// errLongLine is returned by readLine for a line past its bound; the rest
// of the line has been read and dropped.
var errLongLine = errors.New("line too long")

// readLine reads one line without its newline, at most max bytes of it.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			line = append(line, chunk[:max-len(line)]...)
			return line, skipLine(br, err)
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), err
	}
}

// skipLine drops the rest of a line whose reading returned err.
func skipLine(br *bufio.Reader, err error) error {
	for errors.Is(err, bufio.ErrBufferFull) {
		_, err = br.ReadSlice('\n')
	}
	if err != nil {
		return err
	}
	return errLongLine
}

// isJSONRPC reports whether line is one JSON object with "jsonrpc": "2.0".
func isJSONRPC(line []byte) bool {
	if len(line) == 0 || line[0] != '{' || !json.Valid(line) {
		return false
	}
	var m struct {
		Version string `json:"jsonrpc"`
	}
	return json.Unmarshal(line, &m) == nil && m.Version == "2.0"
}

// clip cuts b to at most n bytes.
func clip(b []byte, n int) []byte {
	if len(b) > n {
		return append(b[:n:n], "…"...)
	}
	return b
}
