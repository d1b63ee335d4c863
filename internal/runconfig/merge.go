package runconfig

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/targets"
)

// Run is one run of toolcert run as a config file and the flags describe
// it. Merge returns it; Config turns it into a runner.Config.
type Run struct {
	// Flags hold every run flag's value: the flag's when the user set it,
	// else the file's key (a relative path under the file's folder), else
	// the flag's default.
	Flags
	// Target is the file's target, with the kind and the command, URL or
	// image of a target flag when the user gave one; its UpstreamListen,
	// AuditFile and ReadyTimeout are the run's. Its Rename is the file's:
	// Build lays it over the profile's.
	Target targets.Spec
	// Tools maps corpus tools onto the target's (runner.Config.Tools).
	Tools map[string]targets.ToolMap
	// Capabilities, when the file lists them, replace what the target
	// declares (runner.Config.Capabilities).
	Capabilities *targets.Capabilities

	config   string          // the config file's path as given; "" without one
	set      map[string]bool // the flags the user set
	lines    map[string]int  // the line of each key the run took from the file
	chosenBy string          // the target flag that chose the kind, if any
}

// targetFlag is a flag that chooses the target: its name, the kind it
// names and its value.
type targetFlag struct {
	name, kind, value string
}

// targetFlags returns the flags of f that choose a target.
func targetFlags(f Flags) []targetFlag {
	return []targetFlag{
		{"target-cmd", targets.KindV1Process, f.TargetCmd},
		{"target-url", targets.KindV1URL, f.TargetURL},
		{"target-image", targets.KindV1Image, f.TargetImage},
		{"target-mcp-cmd", targets.KindMCPStdio, f.TargetMCPCmd},
		{"target-mcp-url", targets.KindMCPHTTP, f.TargetMCPURL},
	}
}

// Merge returns the run that file and the flags describe. flags holds
// every flag's value, its default where the user set none; set names the
// flags the user set (flag.FlagSet.Visit). A flag the user set replaces
// the file's key of the same name; a flag that chooses a target
// (--target-cmd, --target-url, --target-image, --target-mcp-cmd,
// --target-mcp-url) replaces the file's kind and command, URL or image,
// and keeps its env, files, capabilities, path and rename. file may be
// nil: the run is the flags'. Two flags that choose a target are an
// error.
func Merge(file *File, flags Flags, set map[string]bool) (Run, error) {
	r := Run{Flags: flags, set: maps.Clone(set), lines: map[string]int{}}
	if file != nil {
		r.take(file)
	}
	if err := r.choose(); err != nil {
		return Run{}, err
	}
	r.Target.UpstreamListen, r.Target.AuditFile, r.Target.ReadyTimeout = r.UpstreamListen, r.AuditFile, r.ReadyTimeout
	return r, nil
}

// take copies what file says and no flag the user set replaces.
func (r *Run) take(file *File) {
	r.config = file.path
	for name, setKey := range file.keys {
		if !r.set[name] {
			setKey(&r.Flags)
			r.lines[name] = file.lines[name]
		}
	}
	for key, line := range file.lines {
		if key == "target" || key == "tools" || strings.HasPrefix(key, "target.") || strings.HasPrefix(key, "tools.") {
			r.lines[key] = line
		}
	}
	r.Target = file.target
	r.Target.Argv = slices.Clone(file.target.Argv)
	r.Target.Env = maps.Clone(file.target.Env)
	r.Target.Files = slices.Clone(file.target.Files)
	r.Target.Rename = maps.Clone(file.target.Rename)
	r.Tools = maps.Clone(file.tools)
	if file.caps != nil {
		caps := *file.caps
		r.Capabilities = &caps
	}
}

// choose lays the target flag the user gave, if any, over the file's
// target.
func (r *Run) choose() error {
	var chosen []targetFlag
	for _, t := range targetFlags(r.Flags) {
		if t.value != "" {
			chosen = append(chosen, t)
		}
	}
	switch len(chosen) {
	case 0:
		return nil
	case 1:
	default:
		var names []string
		for _, t := range chosen {
			names = append(names, "--"+t.name)
		}
		return fmt.Errorf("%s exclude each other", strings.Join(names, " and "))
	}
	t := chosen[0]
	r.Target.Kind, r.Target.Command, r.Target.Argv, r.Target.URL, r.Target.Image = t.kind, "", nil, "", ""
	switch t.kind {
	case targets.KindV1Process, targets.KindMCPStdio:
		r.Target.Command = t.value
	case targets.KindV1Image:
		r.Target.Image = t.value
	default:
		r.Target.URL = t.value
	}
	for _, k := range []string{"kind", "command", "url", "image"} {
		delete(r.lines, "target."+k)
	}
	r.chosenBy = t.name
	return nil
}
