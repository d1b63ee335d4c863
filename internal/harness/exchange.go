package harness

import (
	"fmt"

	"github.com/toolcert/toolcert/mocks"
)

// Route is the sequence of answers programmed for one request line.
type Route struct {
	Method, Path string
	Seq          []mocks.Response
}

// Exchange is one agent call with the answers programmed for it: enough to
// send the same requests again.
type Exchange struct {
	Routes []Route
	Tool   string
	Args   []byte
}

// Program programs the lane's mock upstream with routes, in order.
func (l *Lane) Program(routes []Route) error {
	for _, rt := range routes {
		if err := l.Upstream.Program(rt.Method, rt.Path, rt.Seq...); err != nil {
			return fmt.Errorf("program the mock upstream for %s %s: %w", rt.Method, rt.Path, err)
		}
	}
	return nil
}
