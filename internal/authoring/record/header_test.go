package record

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestKeptHeader(t *testing.T) {
	cases := []struct {
		name, why string
		in        http.Header
		want      http.Header
	}{
		{"content type", "the corpus serves it", http.Header{"Content-Type": {"application/json"}}, http.Header{"Content-Type": {"application/json"}}},
		{"github version", "x-...-version names a version", http.Header{"X-Github-Api-Version": {"2022-11-28"}}, http.Header{"X-Github-Api-Version": {"2022-11-28"}}},
		{"api version", "x-api-version names a version", http.Header{"X-Api-Version": {"v2"}}, http.Header{"X-Api-Version": {"v2"}}},
		{"bare version", "version alone names a version", http.Header{"Version": {"1.4.2"}, "Api-Version": {"3"}}, http.Header{"Version": {"1.4.2"}, "Api-Version": {"3"}}},
		{"lower-case name", "names are matched ignoring case, kept canonical", http.Header{"x-api-version": {"v1"}}, http.Header{"X-Api-Version": {"v1"}}},
		{"authorization", "never kept", http.Header{"Authorization": {"Bearer x"}}, http.Header{}},
		{"cookies", "never kept", http.Header{"Cookie": {"a=b"}, "Set-Cookie": {"a=b"}}, http.Header{}},
		{"www-authenticate", "never kept", http.Header{"Www-Authenticate": {"Basic"}}, http.Header{}},
		{"proxy headers", "never kept", http.Header{"Proxy-Version": {"1"}}, http.Header{}},
		{"secret-named version", "a secret's name wins over the version pattern", http.Header{"X-Token-Version": {"1"}, "X-Session-Version": {"2"}}, http.Header{}},
		{"secret-looking value", "a version header whose value is no version is dropped", http.Header{"X-Api-Version": {"Bearer abc def"}}, http.Header{}},
		{"long value", "a version is short", http.Header{"X-Api-Version": {string(make([]byte, 65))}}, http.Header{}},
		{"other headers", "rate limits, ids and the like are not needed", http.Header{"X-Ratelimit-Remaining": {"59"}, "X-Github-Request-Id": {"CAFE"}, "Etag": {`"x"`}}, http.Header{}},
		{"api key", "never kept", http.Header{"X-Api-Key": {"k"}}, http.Header{}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, keptHeader(c.in)); diff != "" {
			t.Errorf("%s (%s) (-want +got):\n%s", c.name, c.why, diff)
		}
	}
}
