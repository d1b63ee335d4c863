package harness

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/targets"
)

// HTTPAgent calls the tools of an HTTP tool service: the request each
// corpus tool's map describes (targets.ToolMap: method, path, header,
// body), read back by the map's failure status and pointer.
type HTTPAgent struct {
	Client *targets.Client
	Tools  map[string]targets.ToolMap
}

var _ Agent = HTTPAgent{}

// ProtocolHTTP is the protocol of an HTTP tool service.
const ProtocolHTTP = "http"

// Protocol returns "http".
func (HTTPAgent) Protocol() string { return ProtocolHTTP }

// Map returns the map of a corpus tool; a tool without one is a POST of
// its arguments to /<tool>.
func (a HTTPAgent) Map(tool string) targets.ToolMap {
	m := a.Tools[tool]
	if m.Method == "" {
		m.Method = http.MethodPost
	}
	if m.Path == "" {
		m.Path = "/" + url.PathEscape(tool)
	}
	return m
}

// Call renders the tool's request from the corpus's arguments and the
// token, sends it, and reads the answer: its parts are an HTTP answer's,
// and Answer says whether it failed and holds its body.
func (a HTTPAgent) Call(ctx context.Context, inst targets.Instance, tool string, args []byte, token string) (Output, error) {
	m := a.Map(tool)
	req, err := m.RenderRequest(args, token)
	if err != nil {
		return Output{}, fmt.Errorf("tool map of %s: %w", tool, err)
	}
	out, err := a.Client.Do(ctx, inst.URL(), req.Method, req.Path, req.Header, req.Body)
	o := HTTPOutput(out)
	if err != nil {
		return o, err
	}
	o.Answer, err = httpAnswer(m, out)
	o.Result = nil
	return o, err
}

// httpAnswer reads an HTTP answer by m: failed by its status or pointer;
// its body the structured content when it is JSON, and the one text.
func httpAnswer(m targets.ToolMap, out targets.Output) (*Answer, error) {
	failed, err := m.Failed(out.StatusCode)
	if err != nil {
		return nil, err
	}
	a := &Answer{Answered: out.StatusCode != 0, Failed: failed, Texts: []string{string(out.Body)}}
	if m.RequestIDHeader != "" {
		a.RequestID = out.Header.Get(m.RequestIDHeader)
	}
	if v, err := judge.ParseJSON(out.Body, judge.Limits{MaxDepth: 64}); err == nil {
		a.Structured = out.Body
		if m.FailurePointer != "" {
			if _, ok := judge.Lookup(v, m.FailurePointer); ok {
				a.Failed = true
			}
		}
	}
	return a, nil
}
