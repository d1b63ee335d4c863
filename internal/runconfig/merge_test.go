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

// configFile is a file that sets run keys and a target with everything a
// target flag keeps.
const configFile = `features: features
tags: "@transport"
concurrency: 4
out: report
quiet: true
ready-timeout: 20s
target:
  kind: mcp-http
  command: [my-server, --listen, "{{.Listen}}"]
  path: /rpc
  env: {A: b}
  capabilities: [audit]
  rename: {TOOLCERT_LISTEN: ADDR}
`

// TestMerge: a flag the user set replaces its key; a flag left at its
// default does not; a target flag replaces the kind and what starts the
// target and keeps the rest.
func TestMerge(t *testing.T) {
	dir := t.TempDir()
	file, err := Parse(filepath.Join(dir, "toolcert.yaml"), []byte(configFile))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		edit  func(*Flags)
		set   []string
		check func(t *testing.T, r Run)
	}{
		{"no flag set: the file's keys", func(f *Flags) {}, nil, func(t *testing.T, r Run) {
			want := withDefaults(func(f *Flags) {
				f.Features, f.Tags, f.Concurrency, f.Out, f.Quiet, f.ReadyTimeout =
					filepath.Join(dir, "features"), "@transport", 4, filepath.Join(dir, "report"), true, 20*time.Second
			})
			if diff := cmp.Diff(want, r.Flags); diff != "" {
				t.Errorf("flags (-want +got):\n%s", diff)
			}
		}},
		{"set flags win, relative to the working folder", func(f *Flags) {
			f.Features, f.Concurrency, f.Quiet, f.Seed = "my-features", 1, false, 7
		}, []string{"features", "concurrency", "quiet", "seed"}, func(t *testing.T, r Run) {
			if r.Features != "my-features" || r.Concurrency != 1 || r.Quiet || r.Seed != 7 {
				t.Errorf("flags = %+v, want the set flags' values", r.Flags)
			}
			if r.Tags != "@transport" || r.Out != filepath.Join(dir, "report") {
				t.Errorf("flags = %+v, want the file's tags and out", r.Flags)
			}
		}},
		{"a flag at a non-default value the user did not set", func(f *Flags) { f.Tags = "@other" }, nil, func(t *testing.T, r Run) {
			if r.Tags != "@transport" {
				t.Errorf("tags = %q, want the file's: only flags the user set override", r.Tags)
			}
		}},
		{"ready-timeout and upstream-listen reach the target", func(f *Flags) { f.ReadyTimeout = time.Minute }, []string{"ready-timeout"}, func(t *testing.T, r Run) {
			if r.Target.ReadyTimeout != time.Minute {
				t.Errorf("target ready timeout %s, want 1m", r.Target.ReadyTimeout)
			}
		}},
		{"a target flag replaces the kind and command, keeps the rest", func(f *Flags) { f.TargetMCPCmd = "other-server --stdio" }, []string{"target-mcp-cmd"}, func(t *testing.T, r Run) {
			want := targets.Spec{
				Kind: targets.KindMCPStdio, Command: "other-server --stdio", Path: "/rpc",
				Env: map[string]string{"A": "b"}, Rename: map[string]string{"TOOLCERT_LISTEN": "ADDR"}, ReadyTimeout: 20 * time.Second,
			}
			if diff := cmp.Diff(want, r.Target); diff != "" {
				t.Errorf("target (-want +got):\n%s", diff)
			}
			if r.Capabilities == nil || *r.Capabilities != (targets.Capabilities{Audit: true}) {
				t.Errorf("capabilities = %v, want the file's", r.Capabilities)
			}
		}},
		{"a target URL flag", func(f *Flags) { f.TargetMCPURL = "http://127.0.0.1:1/mcp" }, []string{"target-mcp-url"}, func(t *testing.T, r Run) {
			if r.Target.Kind != targets.KindMCPHTTP || r.Target.URL != "http://127.0.0.1:1/mcp" || r.Target.Argv != nil {
				t.Errorf("target = %+v, want the flag's URL and no command", r.Target)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flags := DefaultFlags()
			tt.edit(&flags)
			set := map[string]bool{}
			for _, name := range tt.set {
				set[name] = true
			}
			r, err := Merge(file, flags, set)
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
	if _, err := Merge(file, withDefaults(func(f *Flags) { f.TargetCmd, f.TargetURL = "x", "http://127.0.0.1:1" }), nil); err == nil ||
		err.Error() != "--target-cmd and --target-url exclude each other" {
		t.Errorf("Merge with two target flags = %v, want them named", err)
	}
}

// TestMergeDoesNotShareTheFile: a run's maps are its own; changing them
// leaves the file, and the next run, as read.
func TestMergeDoesNotShareTheFile(t *testing.T) {
	file, err := Parse("toolcert.yaml", []byte(configFile+"tools:\n  run_status: {name: status}\n"))
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := Merge(file, DefaultFlags(), nil)
	r1.Target.Env["A"], r1.Tools["run_status"] = "changed", targets.ToolMap{}
	r1.Capabilities.Policy = true
	r2, _ := Merge(file, DefaultFlags(), nil)
	if r2.Target.Env["A"] != "b" || r2.Tools["run_status"].Name != "status" || r2.Capabilities.Policy {
		t.Errorf("a second Merge sees the first run's changes: %+v %+v %+v", r2.Target.Env, r2.Tools, r2.Capabilities)
	}
}

// TestConfigFaults: what only the run can check (a path that must exist,
// the target's build, the corpus's tools) names the file's line, or the
// flag, at fault.
func TestConfigFaults(t *testing.T) {
	tests := []struct {
		name, text string
		flags      func(*Flags)
		set        []string
		want       string // the error's message, with DIR for the config's folder
	}{
		{"missing features", "tags: x\nfeatures: nope\n", nil, nil, "DIR/toolcert.yaml:2: features: stat DIR/nope: no such file or directory"},
		{"missing features from a flag", "", func(f *Flags) { f.Features = "nope" }, []string{"features"}, "--features: stat nope: no such file or directory"},
		{"a tool the corpus lacks", "tools:\n  review_status: {}\n  reveiw_status: {}\n", nil, nil,
			`DIR/toolcert.yaml:3: tools.reveiw_status: not a tool of the corpus (did you mean "review_status"?)`},
		{"upstream-listen without a running target", "upstream-listen: 127.0.0.1:9099\n", nil, nil,
			"DIR/toolcert.yaml:1: upstream-listen: " + errRunning.Error()},
		{"a bad url", "upstream-listen: 127.0.0.1:9099\ntarget:\n  kind: v1-url\n  url: ftp://127.0.0.1:1\n", nil, nil,
			`DIR/toolcert.yaml:4: target.url: want an http URL such as http://127.0.0.1:8080, got "ftp://127.0.0.1:1"`},
		{"a running target without upstream-listen", "target:\n  kind: v1-url\n  url: http://127.0.0.1:1\n", nil, nil,
			"DIR/toolcert.yaml:1: target: a v1-url target that is already running needs upstream-listen: the address it sends its upstream requests to"},
		{"a bad url from a flag", "target:\n  env: {A: b}\n", func(f *Flags) { f.TargetURL, f.UpstreamListen = "ftp://x", "127.0.0.1:1" }, []string{"target-url", "upstream-listen"},
			`--target-url: want an http URL such as http://127.0.0.1:8080, got "ftp://x"`},
		{"env without a target", "target:\n  env: {A: b}\n", nil, nil, "DIR/toolcert.yaml:2: target.env: goes with a target: give target.kind or a target flag (--target-cmd...)"},
		{"two lanes short", "", func(f *Flags) { f.Concurrency = 0 }, []string{"concurrency"}, "--concurrency: must be at least 1"},
		{"a bad shard flag", "", func(f *Flags) { f.Shard = "0/2" }, []string{"shard"}, "--shard: "},
		{"a missing profile", "profile: none.json\n", nil, nil, "DIR/toolcert.yaml:1: profile: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file, err := Parse(filepath.Join(dir, "toolcert.yaml"), []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			flags := DefaultFlags()
			if tt.flags != nil {
				tt.flags(&flags)
			}
			set := map[string]bool{}
			for _, name := range tt.set {
				set[name] = true
			}
			r, err := Merge(file, flags, set)
			if err == nil {
				_, err = r.Config()
			}
			want := strings.ReplaceAll(tt.want, "DIR", dir)
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("Config = %v\nwant %s", err, want)
			}
			var e *Error
			if strings.HasPrefix(want, dir) && !errors.As(err, &e) {
				t.Errorf("Config = %v, want an *Error", err)
			}
		})
	}
}

// TestConfig: a run's config holds what the file and flags say, the
// corpus's tools mapped, and each lane's audit log under out.
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"features", "corpus/my_tool"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "corpus/my_tool/tool.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	text := "features: features\nfixtures: corpus\nout: report\nshard: 2/3\ntarget:\n  kind: mcp-stdio\n  command: my-server\n  capabilities: [policy]\ntools:\n  my_tool: {name: theirs}\n"
	file, err := Parse(filepath.Join(dir, "toolcert.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Merge(file, DefaultFlags(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := r.Config()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Features == nil || cfg.Fixtures == nil || cfg.Shard.String() != "2/3" || cfg.WorkDir != filepath.Join(dir, "report", "lanes") {
		t.Errorf("Config = %+v, want the file's features, corpus, shard and out/lanes", cfg)
	}
	if cfg.Tools["my_tool"].Name != "theirs" || cfg.Capabilities == nil || !cfg.Capabilities.Policy || cfg.Capabilities.Audit {
		t.Errorf("Config: tools %v, capabilities %v; want the file's", cfg.Tools, cfg.Capabilities)
	}
	if got := cfg.Target.String(); got != "mcp-stdio my-server" {
		t.Errorf("Config: target %q, want mcp-stdio my-server", got)
	}
	if cfg.ReproduceFlags != "--config "+filepath.Join(dir, "toolcert.yaml") {
		t.Errorf("Config: reproducer flags %q, want --config and the file", cfg.ReproduceFlags)
	}
}

// TestBuildRename: the target's rename extends the profile's and wins.
func TestBuildRename(t *testing.T) {
	dir := t.TempDir()
	profile := `{"rename": {"TOOLCERT_LISTEN": "P_ADDR", "TOOLCERT_AUDIT_FILE": "P_AUDIT"}}`
	if err := os.WriteFile(filepath.Join(dir, "profile.json"), []byte(profile), 0o600); err != nil {
		t.Fatal(err)
	}
	text := "profile: profile.json\ntarget:\n  kind: v1-process\n  command: sh\n  rename: {TOOLCERT_LISTEN: T_ADDR}\n"
	file, err := Parse(filepath.Join(dir, "toolcert.yaml"), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := Merge(file, DefaultFlags(), nil)
	if _, p, err := r.Build(); err != nil || p.Rename["TOOLCERT_LISTEN"] != "P_ADDR" {
		t.Fatalf("Build: %v, profile %+v", err, p)
	}
	if r.Target.Rename["TOOLCERT_AUDIT_FILE"] != "" || r.Target.Rename["TOOLCERT_LISTEN"] != "T_ADDR" {
		t.Errorf("Build changed the run's own rename: %v", r.Target.Rename)
	}
}

// TestReproduceFlags: a reproducer repeats --config and the corpus and
// target flags the user set, each value quoted as reports.Command quotes
// it.
func TestReproduceFlags(t *testing.T) {
	file, err := Parse("my dir/toolcert.yaml", []byte("fixtures: corpus\ntarget:\n  kind: v1-process\n  command: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		file  *File
		flags Flags
		set   []string
		want  string
	}{
		{"built-in", nil, Flags{}, nil, ""},
		{"command", nil, Flags{TargetCmd: "./adapter --port 0"}, []string{"target-cmd"}, "--target-cmd './adapter --port 0'"},
		{"corpus first", nil, Flags{Fixtures: "my corpus", TargetImage: "adapter:dev", Profile: "p.json"}, []string{"fixtures", "target-image", "profile"},
			"--fixtures 'my corpus' --target-image adapter:dev --profile p.json"},
		{"running adapter", nil, Flags{TargetURL: "http://127.0.0.1:8080", UpstreamListen: "127.0.0.1:9090", AuditFile: "it's.jsonl"},
			[]string{"target-url", "upstream-listen", "audit-file"},
			`--target-url http://127.0.0.1:8080 --upstream-listen 127.0.0.1:9090 --audit-file "it's.jsonl"`},
		{"a config, and a flag over it", file, Flags{TargetCmd: "y", ReadyTimeout: 20 * time.Second, Seed: 3}, []string{"target-cmd", "ready-timeout", "seed"},
			"--config 'my dir/toolcert.yaml' --target-cmd y --ready-timeout 20s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := map[string]bool{}
			for _, name := range tt.set {
				set[name] = true
			}
			r, err := Merge(tt.file, tt.flags, set)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.ReproduceFlags(); got != tt.want {
				t.Errorf("ReproduceFlags() = %s, want %s", got, tt.want)
			}
		})
	}
}
