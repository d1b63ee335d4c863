package harness_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/targets"
)

func TestHTTPOutputNamesEveryPart(t *testing.T) {
	out := harness.HTTPOutput(targets.Output{
		StatusLine: "HTTP/1.1 200 OK",
		Header:     http.Header{"X-B": {"2"}, "Content-Type": {"application/json"}, "X-A": {"1", "one"}},
		Trailer:    http.Header{"X-T": {"t"}},
		Body:       []byte(`{"outcome":"success"}`),
	})
	var got []string
	for _, p := range out.Parts {
		got = append(got, p.Where+"="+string(p.Data))
	}
	want := []string{
		"status line=HTTP/1.1 200 OK",
		"header Content-Type=Content-Type: application/json",
		"header X-A=X-A: 1, one",
		"header X-B=X-B: 2",
		"trailer X-T=X-T: t",
		`body={"outcome":"success"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if string(out.Result) != `{"outcome":"success"}` || out.ResultWhere != harness.PartBody {
		t.Errorf("result %q in %q, want the body", out.Result, out.ResultWhere)
	}
}
