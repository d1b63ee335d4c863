package targets

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxTraffic bounds what one call keeps of the server's messages.
const maxTraffic = 4 << 20

// capture keeps what a server sends while a call runs. It is safe for
// concurrent use.
type capture struct {
	mu        sync.Mutex
	on        bool
	buf       []byte
	truncated bool
}

// begin starts keeping traffic for a new call.
func (c *capture) begin() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on, c.buf, c.truncated = true, nil, false
}

// end stops keeping traffic and returns what was kept.
func (c *capture) end() ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = false
	return c.buf, c.truncated
}

// add keeps p, followed by a newline, while a call runs.
func (c *capture) add(p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.on {
		return
	}
	room := maxTraffic - len(c.buf)
	if len(p)+1 > room {
		c.truncated = true
		p = p[:max(room-1, 0)]
	}
	if room > 0 {
		c.buf = append(append(c.buf, p...), '\n')
	}
}

// capturingTransport is an mcp.Transport whose connection hands every
// message it reads to a capture.
type capturingTransport struct {
	mcp.Transport
	capture *capture
}

// Connect connects the wrapped transport.
func (t capturingTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return capturingConn{Connection: conn, capture: t.capture}, nil
}

// capturingConn is a connection that captures what it reads.
type capturingConn struct {
	mcp.Connection
	capture *capture
}

// Read reads the next message and captures its JSON.
func (c capturingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if err == nil {
		if b, eerr := jsonrpc.EncodeMessage(msg); eerr == nil {
			c.capture.add(b)
		}
	}
	return msg, err
}

var _ mcp.Transport = capturingTransport{}
