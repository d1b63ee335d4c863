package reference_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/targets"
)

func ExampleInProcessClones() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}`)
	}))
	defer upstream.Close()
	target := reference.InProcessClones(map[string]string{"review_status_07": "review_status"})
	fmt.Println(target)
	ctx := context.Background()
	inst, err := target.Start(ctx, targets.Env{UpstreamURL: upstream.URL, AuditFile: os.DevNull})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer inst.Stop(ctx)
	resp, err := http.Post(inst.URL()+"/v1/tools/review_status_07/invoke", "application/json",
		strings.NewReader(`{"arguments":{"change_id":"CR-1042"}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body[:strings.Index(string(body), `,"request_id"`)]), string(body[strings.Index(string(body), `"outcome"`):]))
	// Output:
	// in-process reference with 1 tool clone of review_status
	// {"tool":"review_status_07" "outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"alice"}}
}
