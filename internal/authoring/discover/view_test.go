package discover

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestViewOfAnEnvelope: a tool that shows the data inside the upstream's
// envelope keeps that part, wrapped under its name.
func TestViewOfAnEnvelope(t *testing.T) {
	answer := `{"status": "success", "data": {"version": "2.13.1", "revision": "cb7cbad", "branch": "HEAD"}}`
	res := &mcp.CallToolResult{StructuredContent: map[string]any{"version": "2.13.1", "revision": "cb7cbad"}}
	v, err := inferView([]byte(answer), res)
	if err != nil {
		t.Fatal(err)
	}
	if v.AnswerAt != "/data" || v.Wrap != "data" || v.Data != "" || strings.Join(v.Hidden, ",") != "/data/branch" {
		t.Errorf("view %+v: want the part /data wrapped as data, /data/branch hidden", v)
	}
}

// TestProseOfTuples: in prose, what is shown is named by index, since a
// list's elements may be tuples of unlike values (a timestamp the tool
// renders its own way, then a line it shows as it is).
func TestProseOfTuples(t *testing.T) {
	answer := `{"values": [["1568234269716526880", "GET /index.html 200"], ["1568234281726420425", "GET /about 404"]]}`
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "2019-09-11T20:37:49Z GET /index.html 200\n2019-09-11T20:38:01Z GET /about 404"}}}
	v, err := inferView([]byte(answer), res)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(v.Shown, ","); got != "/values/0/1,/values/1/1" {
		t.Errorf("shown %s", got)
	}
	if got := strings.Join(v.Hidden, ","); got != "/values/0/0,/values/1/0" {
		t.Errorf("hidden %s", got)
	}
}
