package record

import "testing"

func TestRedactQuery(t *testing.T) {
	cases := []struct{ in, want, why string }{
		{"", "", "no query"},
		{"per_page=5&page=2", "per_page=5&page=2", "nothing secret"},
		{"access_token=abc&per_page=5", "access_token=REDACTED&per_page=5", "access_token"},
		{"api_key=abc", "api_key=REDACTED", "api_key"},
		{"apikey=abc&key=def", "apikey=REDACTED&key=REDACTED", "key, alone or in apikey"},
		{"TOKEN=abc", "TOKEN=REDACTED", "names ignore case"},
		{"sig=abc&signature=def&X-Amz-Signature=ghi", "sig=REDACTED&signature=REDACTED&X-Amz-Signature=REDACTED", "signatures"},
		{"password=a&client_secret=b&auth=c", "password=REDACTED&client_secret=REDACTED&auth=REDACTED", "passwords, secrets, auth"},
		{"X-Amz-Credential=AKIA", "X-Amz-Credential=REDACTED", "credentials"},
		{"author=octocat&monkey=1&design=2", "author=octocat&monkey=1&design=2", "auth, key and sig inside other words are kept"},
		{"q=a%20b&to%6Ben=x", "q=a%20b&to%6Ben=REDACTED", "names are decoded, other bytes kept as sent"},
		{"token&x=1", "token&x=1", "a parameter without a value holds no secret"},
		{"a=1&&token=2", "a=1&&token=REDACTED", "empty parts are kept"},
	}
	for _, c := range cases {
		if got := redactQuery(c.in); got != c.want {
			t.Errorf("redactQuery(%q) = %q, want %q (%s)", c.in, got, c.want, c.why)
		}
	}
}
