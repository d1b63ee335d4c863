package runconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// Config returns the runner config of r: its features, corpus and
// baseline opened, its shard parsed, its target built (Build), each lane's
// audit log under Out/lanes and the reproducer's flags set. The caller
// sets what is not the run's to say: Version, Progress, Now. An error
// names the key and line of the file, or the flag, at fault.
func (r Run) Config() (runner.Config, error) {
	cfg := runner.Config{
		Tags: r.Tags, Concurrency: r.Concurrency, Seed: r.Seed, RequireAll: r.RequireAll,
		AllowOpenDecisions: r.AllowOpenDecisions,
		Tools:              maps.Clone(r.Tools), Capabilities: r.Capabilities,
		UpstreamListen: r.UpstreamListen, AuditFile: r.AuditFile,
		UpstreamVersion: r.UpstreamVersion, Case: r.Case,
		WorkDir: filepath.Join(r.Out, "lanes"), ReproduceFlags: r.ReproduceFlags(),
	}
	if cfg.Concurrency < 1 {
		return cfg, r.fault("concurrency", errors.New("must be at least 1"))
	}
	level, err := reports.ParseLevel(r.Level)
	if err != nil {
		return cfg, r.fault("level", err)
	}
	cfg.Level = level
	if err := r.open(&cfg); err != nil {
		return cfg, err
	}
	if cfg.Target, cfg.Profile, err = r.Build(); err != nil {
		return cfg, err
	}
	return cfg, r.checkTools(cfg.Fixtures)
}

// open fills cfg with the features, corpus, baseline and shard r names.
func (r Run) open(cfg *runner.Config) (err error) {
	if r.Features != "" {
		if cfg.Features, cfg.FeaturePaths, err = runner.FeaturesAt(r.Features); err != nil {
			return r.fault("features", err)
		}
	}
	if r.Fixtures != "" {
		if cfg.Fixtures, err = runner.FixturesAt(r.Fixtures); err != nil {
			return r.fault("fixtures", err)
		}
	}
	if r.Baseline != "" {
		if cfg.Baseline, err = reports.LoadBaseline(r.Baseline); err != nil {
			return r.fault("baseline", err)
		}
	}
	if r.Shard != "" {
		if cfg.Shard, err = runner.ParseShard(r.Shard); err != nil {
			return r.fault("shard", err)
		}
	}
	return nil
}

// Build returns the target r names and the profile it declares, whose
// rename the target's rename extends (the target's wins). Without a target
// it returns the reference adapter, in-process.
func (r Run) Build() (targets.Target, targets.Profile, error) {
	var profile targets.Profile
	if r.Profile != "" {
		p, err := targets.LoadProfile(r.Profile)
		if err != nil {
			return nil, profile, r.fault("profile", err)
		}
		profile = p
	}
	spec := r.Target
	if spec.ReadyTimeout == 0 {
		spec.ReadyTimeout = time.Duration(profile.ReadyTimeout)
	}
	if len(profile.Rename)+len(spec.Rename) > 0 {
		spec.Rename = maps.Clone(profile.Rename)
		if spec.Rename == nil {
			spec.Rename = map[string]string{}
		}
		maps.Copy(spec.Rename, r.Target.Rename)
	}
	if spec.Kind == "" {
		return r.reference(spec, profile)
	}
	t, err := spec.Build()
	if err != nil {
		var se *targets.SpecError
		if errors.As(err, &se) {
			return nil, profile, r.specFault(se)
		}
		return nil, profile, err
	}
	return t, profile, nil
}

// reference returns the reference adapter, in-process, for a run that
// names no target: one that sets nothing only a target it starts or
// reaches could use.
func (r Run) reference(spec targets.Spec, profile targets.Profile) (targets.Target, targets.Profile, error) {
	switch {
	case spec.UpstreamListen != "":
		return nil, profile, r.fault("upstream-listen", errRunning)
	case spec.AuditFile != "":
		return nil, profile, r.fault("audit-file", errRunning)
	}
	for _, k := range []string{"env", "files", "rename"} {
		if _, ok := r.lines["target."+k]; ok {
			return nil, profile, r.fault("target."+k, fmt.Errorf("goes with a target: give target.kind or a target flag (--target-cmd...)"))
		}
	}
	return reference.InProcess(), profile, nil
}

// errRunning is the fault of an address or audit log given without a
// target that is already running.
var errRunning = errors.New("goes with a target that is already running: --target-url or --target-mcp-url, or a target of kind v1-url, or mcp-http with a url")

// specFault returns the error of targets.Spec.Build as the fault of the
// key or flag it names.
func (r Run) specFault(se *targets.SpecError) error {
	switch se.Field {
	case "upstream-listen", "audit-file":
		return r.fault(se.Field, se.Err)
	case "":
		if line, ok := r.lines["target"]; ok && r.chosenBy == "" {
			return &Error{File: r.config, Line: line, Key: "target", Err: se.Err}
		}
		return se.Err
	}
	return r.fault("target."+se.Field, se.Err)
}

// fault returns err as the fault of key: an *Error at its line when the
// run took it from the file, else the error of the flag that set it.
func (r Run) fault(key string, err error) error {
	if line, ok := r.lines[key]; ok {
		return &Error{File: r.config, Line: line, Key: key, Err: err}
	}
	if strings.HasPrefix(key, "target.") {
		if r.chosenBy == "" {
			return fmt.Errorf("%s: %w", key, err)
		}
		key = r.chosenBy
	}
	return fmt.Errorf("--%s: %w", key, err)
}

// checkTools refuses a tool the tool map names that looks like a typo: not
// a folder of the corpus (fixtures, or the built-in corpus when nil) but
// close to one. A name far from every folder is kept: the features may
// call tools the corpus has no folder for (purge_cache).
func (r Run) checkTools(fixtures fs.FS) error {
	if len(r.Tools) == 0 {
		return nil
	}
	if fixtures == nil {
		fixtures = toolcert.Fixtures()
	}
	entries, err := fs.ReadDir(fixtures, ".")
	if err != nil {
		return r.fault("fixtures", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	for _, tool := range slices.Sorted(maps.Keys(r.Tools)) {
		if c := closest(tool, names); c != "" && c != tool && !slices.Contains(names, tool) {
			return r.fault("tools."+tool, fmt.Errorf("not a tool of the corpus (did you mean %q?)", c))
		}
	}
	return nil
}

// ReproduceFlags returns the flags a generated case's reproducer repeats:
// --config with the file's path as given, then the flags the user set that
// choose the corpus and the target.
func (r Run) ReproduceFlags() string {
	var words []string
	if r.config != "" {
		words = append(words, "--config", r.config)
	}
	timeout := ""
	if r.ReadyTimeout > 0 {
		timeout = r.ReadyTimeout.String()
	}
	repeated := []targetFlag{{name: "fixtures", value: r.Fixtures}}
	repeated = append(repeated, targetFlags(r.Flags)...)
	repeated = append(repeated, targetFlag{name: "upstream-listen", value: r.UpstreamListen},
		targetFlag{name: "audit-file", value: r.AuditFile}, targetFlag{name: "profile", value: r.Profile},
		targetFlag{name: "ready-timeout", value: timeout}, targetFlag{name: "level", value: r.Level})
	for _, f := range repeated {
		if r.set[f.name] && f.value != "" {
			words = append(words, "--"+f.name, f.value)
		}
	}
	return reports.Command(words...)
}
