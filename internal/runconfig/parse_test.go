package runconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/targets"
)

// parsed is what a test compares of a file read and merged with the
// default flags.
type parsed struct {
	Flags        Flags
	Target       targets.Spec
	Tools        map[string]targets.ToolMap
	Capabilities *targets.Capabilities
}

// parse reads text as the config file dir/toolcert.yaml and merges it
// with the default flags, none set.
func parse(tb testing.TB, dir, text string) (parsed, error) {
	tb.Helper()
	f, err := Parse(filepath.Join(dir, "toolcert.yaml"), []byte(text))
	if err != nil {
		return parsed{}, err
	}
	r, err := Merge(f, DefaultFlags(), nil)
	return parsed{r.Flags, r.Target, r.Tools, r.Capabilities}, err
}

// withDefaults returns the default flags changed by edit.
func withDefaults(edit func(*Flags)) Flags {
	f := DefaultFlags()
	edit(&f)
	return f
}

func TestParse(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kubeconfig.tmpl"), []byte("server: {{.UpstreamURL}}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, text string
		want       parsed
	}{
		{"empty file is the defaults", "", parsed{Flags: DefaultFlags()}},
		{"comments only", "# nothing yet\n", parsed{Flags: DefaultFlags()}},
		{"every run key, relative paths under the file's folder", `
features: features
fixtures: /abs/corpus
tags: "@transport && ~@slow"
concurrency: 4
seed: 42
out: report
format: json,junit
quiet: true
upstream-version: v2
case: run_status/failed/nan/attempt
baseline: baseline.json
shard: 1/2
write-baseline: ../new-baseline.json
require-all: true
level: safe
profile: profile.json
upstream-listen: 127.0.0.1:9099
audit-file: logs/audit.jsonl
ready-timeout: 1m30s
`, parsed{Flags: Flags{
			Features: filepath.Join(dir, "features"), Fixtures: "/abs/corpus", Tags: "@transport && ~@slow",
			Concurrency: 4, Seed: 42, Out: filepath.Join(dir, "report"), Format: "json,junit", Quiet: true,
			UpstreamVersion: "v2", Case: "run_status/failed/nan/attempt", Baseline: filepath.Join(dir, "baseline.json"),
			Shard: "1/2", WriteBaseline: filepath.Join(filepath.Dir(dir), "new-baseline.json"), RequireAll: true, Level: "safe",
			Profile: filepath.Join(dir, "profile.json"), UpstreamListen: "127.0.0.1:9099",
			AuditFile: filepath.Join(dir, "logs/audit.jsonl"), ReadyTimeout: 90 * time.Second,
		}, Target: targets.Spec{UpstreamListen: "127.0.0.1:9099", AuditFile: filepath.Join(dir, "logs/audit.jsonl"), ReadyTimeout: 90 * time.Second}}},
		{"format as a list", "format: [json, html]\n", parsed{Flags: withDefaults(func(f *Flags) { f.Format = "json,html" })}},
		{"command line, env, files, rename, capabilities", `
target:
  kind: v1-process
  command: ./my-adapter --config '{{.Dir}}/adapter.yaml' --port {{.Port}}
  env:
    MY_UPSTREAM: "{{.UpstreamURL}}"
    MY_RETRIES: 3
  files:
    - path: adapter.yaml
      text: |
        upstream: {{.UpstreamURL}}
      mode: 0640
    - path: "{{.Dir}}/kube/config"
      from: kubeconfig.tmpl
      mode: "0600"
  rename:
    TOOLCERT_LISTEN: MY_ADDR
    TOOLCERT_AUDIT_FILE: ""
  capabilities: [audit, policy]
`, parsed{Flags: DefaultFlags(), Target: targets.Spec{
			Kind: targets.KindV1Process, Command: "./my-adapter --config '{{.Dir}}/adapter.yaml' --port {{.Port}}",
			Env: map[string]string{"MY_UPSTREAM": "{{.UpstreamURL}}", "MY_RETRIES": "3"},
			Files: []targets.FileTemplate{
				{Path: "adapter.yaml", Text: "upstream: {{.UpstreamURL}}\n", Mode: 0o640},
				{Path: "{{.Dir}}/kube/config", Text: "server: {{.UpstreamURL}}\n", Mode: 0o600},
			},
			Rename: map[string]string{"TOOLCERT_LISTEN": "MY_ADDR", "TOOLCERT_AUDIT_FILE": ""},
		}, Capabilities: &targets.Capabilities{Audit: true, Policy: true}}},
		{"command as a list, an empty capability list", `
target:
  kind: mcp-http
  command: [my-server, --listen, "{{.Listen}}"]
  path: /rpc
  capabilities: []
`, parsed{Flags: DefaultFlags(), Target: targets.Spec{Kind: targets.KindMCPHTTP, Argv: []string{"my-server", "--listen", "{{.Listen}}"}, Path: "/rpc"},
			Capabilities: &targets.Capabilities{}}},
		{"a target without a kind, for a target flag", "target:\n  env: {A: b}\n",
			parsed{Flags: DefaultFlags(), Target: targets.Spec{Env: map[string]string{"A": "b"}}}},
		{"tools", `
target: {kind: mcp-stdio, command: my-server}
tools:
  review_status:
    name: get_review
    arguments: '{"id": {{json .change_id}}}'
    result: text:1
    data: /review
    code: /error/code
    retryable: /error/retryable
  run_status:
    volatile:
      pointers: [/fetched_at, /items/*/etag]
      patterns: 'req-[0-9a-f]{8}'
    compare: {instants: true, omit-zero: true, adds: [/source]}
`, parsed{Flags: DefaultFlags(), Target: targets.Spec{Kind: targets.KindMCPStdio, Command: "my-server"},
			Tools: map[string]targets.ToolMap{
				"review_status": {Name: "get_review", Arguments: `{"id": {{json .change_id}}}`, Result: "text:1", Data: "/review", Code: "/error/code", Retryable: "/error/retryable"},
				"run_status": {Volatile: targets.Volatile{Pointers: []string{"/fetched_at", "/items/*/etag"}, Patterns: []string{"req-[0-9a-f]{8}"}},
					Compare: targets.Compare{Instants: true, OmitZero: true, Adds: []string{"/source"}}},
			}}},
		{"anchors and aliases", `
target:
  kind: mcp-stdio
  command: my-server
tools:
  review_status: &plain {result: plain}
  run_status: *plain
`, parsed{Flags: DefaultFlags(), Target: targets.Spec{Kind: targets.KindMCPStdio, Command: "my-server"},
			Tools: map[string]targets.ToolMap{"review_status": {Result: "plain"}, "run_status": {Result: "plain"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parse(t, dir, strings.TrimPrefix(tt.text, "\n"))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseErrors: every fault names the file, the line and the key.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
		key        string
		is         error  // a sentinel the error wraps, or nil
		says       string // what the message must hold beyond file, line and key
	}{
		{"unknown top-level key", "tags: x\nfeaturs: f\n", 2, "featurs", ErrUnknownKey, `did you mean "features"?`},
		{"unknown key without a near one", "zzzzzzzz: 1\n", 1, "zzzzzzzz", ErrUnknownKey, "want one of features, fixtures"},
		{"unknown key in target", "target:\n  kind: v1-process\n  comand: x\n", 3, "target.comand", ErrUnknownKey, `did you mean "command"?`},
		{"unknown key in tools", "tools:\n  review_status:\n    nmae: get\n", 3, "tools.review_status.nmae", ErrUnknownKey, `did you mean "name"?`},
		{"unknown key in files", "target:\n  kind: v1-process\n  command: x\n  files:\n    - path: a\n      txt: b\n", 6, "target.files[0].txt", ErrUnknownKey, `did you mean "text"?`},
		{"merge key", "base: &b {tags: x}\n", 1, "base", ErrUnknownKey, ""},
		{"duplicate top-level key", "seed: 1\ntags: x\nseed: 2\n", 3, "seed", ErrDuplicateKey, "first at line 1"},
		{"duplicate key in target", "target:\n  kind: v1-url\n  url: http://127.0.0.1:1\n  kind: v1-url\n", 4, "target.kind", ErrDuplicateKey, "first at line 2"},
		{"duplicate tool", "tools:\n  run_status: {}\n  run_status: {}\n", 3, "tools.run_status", ErrDuplicateKey, ""},
		{"integer as a string", "concurrency: \"4\"\n", 1, "concurrency", ErrWrongType, `want an integer, got the string "4"`},
		{"string as an integer", "upstream-version: 2\n", 1, "upstream-version", ErrWrongType, "want a string, got the integer 2"},
		{"bool as a string", "quiet: yes\n", 1, "quiet", ErrWrongType, `want true or false, got the string "yes"`},
		{"negative seed", "seed: -1\n", 1, "seed", ErrWrongType, "want an integer of 0 or more"},
		{"null value", "features:\n", 1, "features", ErrWrongType, "got nothing (null)"},
		{"target as a list", "target:\n  - v1-process\n", 2, "target", ErrWrongType, "want a mapping, got a list"},
		{"env as a list", "target:\n  kind: v1-process\n  command: x\n  env: [A=b]\n", 4, "target.env", ErrWrongType, "want a mapping"},
		{"env value a mapping", "target:\n  env:\n    A: {b: c}\n", 3, "target.env.A", ErrWrongType, "want a string"},
		{"tool map value a list", "tools:\n  run_status:\n    name: [a]\n", 3, "tools.run_status.name", ErrWrongType, "want a string, got a list"},
		{"zero lanes", "concurrency: 0\n", 1, "concurrency", nil, "must be at least 1"},
		{"unknown level", "level: lax\n", 1, "level", nil, `"lax" is not a level: want safe or strict`},
		{"a volatile pattern that does not compile", "tools:\n  run_status:\n    volatile:\n      patterns: ['req-[0-9']\n", 4, "tools.run_status.volatile.patterns", nil, "volatile pattern"},
		{"a volatile pointer that is none", "tools:\n  run_status:\n    volatile:\n      pointers: [fetched_at]\n", 4, "tools.run_status.volatile.pointers", nil, "not a JSON pointer"},
		{"an unknown comparison", "tools:\n  run_status:\n    compare:\n      instant: true\n", 4, "tools.run_status.compare.instant", ErrUnknownKey, `did you mean "instants"?`},
		{"a comparison that is no boolean", "tools:\n  run_status:\n    compare:\n      omit-zero: yes\n", 4, "tools.run_status.compare.omit-zero", ErrWrongType, "want true or false"},
		{"bad kind", "target:\n  kind: mcp-stdoi\n", 2, "target.kind", nil, `"mcp-stdoi" is not one of v1-process, v1-url, v1-image, mcp-stdio, mcp-http, http (did you mean "mcp-stdio"?)`},
		{"bad duration", "ready-timeout: 20 seconds\n", 1, "ready-timeout", nil, `want a Go duration such as "20s"`},
		{"duration as a number", "ready-timeout: 20\n", 1, "ready-timeout", ErrWrongType, "got the integer 20"},
		{"zero duration", "ready-timeout: 0s\n", 1, "ready-timeout", nil, "must be positive"},
		{"bad shard", "shard: 3/2\n", 1, "shard", nil, ""},
		{"bad format", "format: [json, pdf]\n", 1, "format", nil, `unknown format "pdf"`},
		{"bad template in a command word", "target:\n  kind: v1-process\n  command: adapter --port {{.Prot}}\n", 3, "target.command", nil, "Prot"},
		{"unclosed template in a command list", "target:\n  kind: mcp-stdio\n  command: [adapter, \"{{.Listen\"]\n", 3, "target.command", nil, "template"},
		{"template split by spaces", "target:\n  kind: v1-process\n  command: adapter --listen {{ .Listen }}\n", 3, "target.command", nil, "template"},
		{"shell syntax in a command", "target:\n  kind: v1-process\n  command: adapter $(whoami)\n", 3, "target.command", targets.ErrUnsupportedSyntax, ""},
		{"empty command list", "target:\n  kind: v1-process\n  command: []\n", 3, "target.command", nil, "an empty list"},
		{"bad template in env", "target:\n  env:\n    A: \"{{.UpstreamUrl}}\"\n", 3, "target.env.A", nil, "UpstreamUrl"},
		{"bad template in a file's text", "target:\n  kind: v1-process\n  command: x\n  files:\n    - path: a\n      text: \"{{if}}\"\n", 6, "target.files[0].text", nil, "template"},
		{"bad template in a file's path", "target:\n  kind: v1-process\n  command: x\n  files:\n    - path: \"{{.Dirr}}/a\"\n", 5, "target.files[0].path", nil, "Dirr"},
		{"missing template file", "target:\n  kind: v1-process\n  command: x\n  files:\n    - path: a\n      from: nope.tmpl\n", 6, "target.files[0].from", nil, "nope.tmpl"},
		{"file without a path", "target:\n  kind: v1-process\n  command: x\n  files:\n    - text: a\n", 5, "target.files[0].path", nil, "missing"},
		{"file with text and from", "target:\n  kind: v1-process\n  command: x\n  files:\n    - path: a\n      text: b\n      from: a.tmpl\n", 7, "target.files[0].from", nil, "exclude each other"},
		{"decimal mode", "target:\n  kind: v1-process\n  command: x\n  files:\n    - {path: a, text: b, mode: 644}\n", 5, "target.files[0].mode", nil, "in octal"},
		{"unknown capability", "target:\n  capabilities: [audit, aproval]\n", 2, "target.capabilities[1]", nil, `"aproval" is not a capability: want audit, policy, approvals (did you mean "approvals"?)`},
		{"capability twice", "target:\n  capabilities:\n    - audit\n    - audit\n", 4, "target.capabilities[1]", nil, "listed twice"},
		{"rename of an unknown variable", "target:\n  rename:\n    TOOLCERT_LISTN: ADDR\n", 3, "target.rename.TOOLCERT_LISTN", ErrUnknownKey, `did you mean "TOOLCERT_LISTEN"?`},
		{"bad result", "tools:\n  run_status:\n    result: txt:1\n", 3, "tools.run_status.result", nil, "want structured, text, text:N or plain"},
		{"bad argument template", "tools:\n  run_status:\n    arguments: '{\"id\": {{json .id}'\n", 3, "tools.run_status.arguments", nil, "arguments template"},
		{"bad data pointer", "tools:\n  run_status:\n    data: review\n", 3, "tools.run_status.data", nil, "not a JSON pointer"},
		{"command without a kind", "target:\n  env: {A: b}\n  command: x\n", 3, "target.command", nil, "needs a kind"},
		{"kind without a command", "target:\n  kind: mcp-stdio\n", 1, "target", nil, "an mcp-stdio target needs command"},
		{"image with a command", "target:\n  kind: v1-image\n  image: a:dev\n  command: x\n", 4, "target.command", nil, "the image's entrypoint runs"},
		{"url and command", "target:\n  kind: mcp-http\n  url: http://127.0.0.1:1/mcp\n  command: x\n", 3, "target.url", nil, "exclude each other"},
		{"path with a process", "target:\n  kind: v1-process\n  command: x\n  path: /mcp\n", 4, "target.path", nil, "takes no path"},
		{"path that is not one", "target:\n  kind: mcp-http\n  command: x\n  path: mcp\n", 4, "target.path", nil, "starts with /"},
		{"second document", "tags: x\n---\ntags: y\n", 2, "", nil, "a second document"},
		{"syntax error", "tags: x\n  seed: 1\n", 2, "", nil, "mapping values are not allowed"},
		{"not a mapping", "- tags\n", 1, "", ErrWrongType, "want a mapping, got a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parse(t, t.TempDir(), tt.text)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Parse = %v, want an *Error", err)
			}
			if e.Line != tt.line || e.Key != tt.key {
				t.Errorf("Parse: line %d, key %q; want line %d, key %q (%v)", e.Line, e.Key, tt.line, tt.key, err)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Parse = %v, want it to wrap %v", err, tt.is)
			}
			prefix := filepath.Base(e.File) + ":"
			if !strings.Contains(err.Error(), prefix) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("Parse = %q, want it to name %s and say %q", err, prefix, tt.says)
			}
		})
	}
}

// TestLoad: Load reads the file at its path; a missing file is an error
// that names it.
func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "toolcert.yaml")
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Load of a missing file = %v, want an error naming it", err)
	}
	if err := os.WriteFile(path, []byte("tags: \"@x\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := Merge(f, DefaultFlags(), nil); r.Tags != "@x" {
		t.Errorf("Load: tags %q, want @x", r.Tags)
	}
}
