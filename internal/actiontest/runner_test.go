package actiontest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakeRunner runs a composite action's steps the way a GitHub runner does,
// on this machine: each run script with bash --noprofile --norc -eo
// pipefail, its env evaluated from the inputs and earlier steps' outputs, a
// fresh GITHUB_OUTPUT per step and one GITHUB_STEP_SUMMARY per job. A
// `uses:` step is not run: it is recorded as run or skipped by its if.
type fakeRunner struct {
	actionPath string   // GITHUB_ACTION_PATH: the module's root
	workspace  string   // GITHUB_WORKSPACE and the scripts' folder
	temp       string   // RUNNER_TEMP
	path       string   // PATH; "" keeps this process's
	env        []string // more variables for every step
	built      string   // when set, the build step is not run and its bin output is this
}

// stepRun is what one step did.
type stepRun struct {
	name    string
	uses    string
	ran     bool
	code    int
	log     string
	outputs map[string]string
}

// jobRun is what the action did in one job.
type jobRun struct {
	steps   []stepRun
	outputs map[string]string // the action's outputs
	summary string            // the job summary
	code    int               // the exit code of the first failed step, or 0
}

// newFakeRunner returns a runner with a fresh workspace and RUNNER_TEMP
// for the action at the module's root.
func newFakeRunner(tb testing.TB) *fakeRunner {
	tb.Helper()
	dir := tb.TempDir()
	r := &fakeRunner{
		actionPath: repoRoot(tb),
		workspace:  filepath.Join(dir, "workspace"),
		temp:       filepath.Join(dir, "runner-temp"),
	}
	for _, d := range []string{r.workspace, r.temp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	return r
}

// run runs the action with the given inputs (the others take their
// defaults) and returns what it did. A step that fails stops the steps
// whose if does not say always(), as on GitHub.
func (r *fakeRunner) run(tb testing.TB, a actionFile, given map[string]string) jobRun {
	tb.Helper()
	ctx, summary := r.context(tb, a, given), r.summaryFile(tb)
	var job jobRun
	for _, s := range a.Runs.Steps {
		sr := r.step(tb, ctx, s, job.code != 0, summary)
		if sr.ran && sr.code != 0 && job.code == 0 {
			job.code = sr.code
		}
		if s.ID != "" {
			ctx.steps[s.ID] = sr.outputs
		}
		job.steps = append(job.steps, sr)
	}
	job.outputs = map[string]string{}
	for name, o := range a.Outputs {
		v, err := ctx.value(o.Value)
		if err != nil {
			tb.Fatalf("output %s: %v", name, err)
		}
		job.outputs[name] = v
	}
	data, err := os.ReadFile(summary)
	if err != nil {
		tb.Fatal(err)
	}
	job.summary = string(data)
	return job
}

// runStep runs the action's step with the given id alone, with the given
// inputs.
func (r *fakeRunner) runStep(tb testing.TB, a actionFile, id string, given map[string]string) stepRun {
	tb.Helper()
	return r.step(tb, r.context(tb, a, given), a.stepByID(tb, id), false, r.summaryFile(tb))
}

// context returns the expression context of a run with the given inputs;
// the inputs not given take their defaults.
func (r *fakeRunner) context(tb testing.TB, a actionFile, given map[string]string) exprContext {
	tb.Helper()
	ctx := exprContext{inputs: map[string]string{}, steps: map[string]map[string]string{}, temp: r.temp, actionPath: r.actionPath}
	for name, in := range a.Inputs {
		ctx.inputs[name] = in.Default
	}
	for name, v := range given {
		if _, ok := a.Inputs[name]; !ok {
			tb.Fatalf("input %q is not declared in action.yml", name)
		}
		ctx.inputs[name] = v
	}
	return ctx
}

// summaryFile returns the job summary file, emptied.
func (r *fakeRunner) summaryFile(tb testing.TB) string {
	tb.Helper()
	summary := filepath.Join(r.temp, "step-summary.md")
	if err := os.WriteFile(summary, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	return summary
}

// step runs one step, or records it as skipped or as a uses: step.
func (r *fakeRunner) step(tb testing.TB, ctx exprContext, s step, failed bool, summary string) stepRun {
	tb.Helper()
	sr := stepRun{name: s.Name, uses: s.Uses, outputs: map[string]string{}}
	run, err := ctx.condition(s.If, failed)
	if err != nil {
		tb.Fatalf("step %q: %v", s.Name, err)
	}
	if sr.ran = run; !run || s.Uses != "" {
		return sr
	}
	if s.ID == "build" && r.built != "" {
		sr.outputs["bin"] = r.built
		return sr
	}
	env := r.baseEnv(summary)
	for name, v := range s.Env {
		val, err := ctx.value(v)
		if err != nil {
			tb.Fatalf("step %q: env %s: %v", s.Name, name, err)
		}
		env = append(env, name+"="+val)
	}
	sr.code, sr.log, sr.outputs = r.exec(tb, s, env)
	return sr
}

// baseEnv is this process's environment without anything of GitHub's,
// toolcert's or an input's, then the runner's variables.
func (r *fakeRunner) baseEnv(summary string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		drop := name == "CI" || (r.path != "" && name == "PATH")
		for _, prefix := range []string{"GITHUB_", "RUNNER_", "INPUT_", "TOOLCERT_"} {
			drop = drop || strings.HasPrefix(name, prefix)
		}
		if !drop {
			env = append(env, kv)
		}
	}
	if r.path != "" {
		env = append(env, "PATH="+r.path)
	}
	env = append(env, "CI=true", "GITHUB_ACTIONS=true",
		"GITHUB_ACTION_PATH="+r.actionPath, "GITHUB_WORKSPACE="+r.workspace,
		"RUNNER_TEMP="+r.temp, "GITHUB_STEP_SUMMARY="+summary)
	return append(env, r.env...)
}

// exec runs a step's script as GitHub runs a bash step and returns its
// exit code, its output and the outputs it wrote.
func (r *fakeRunner) exec(tb testing.TB, s step, env []string) (int, string, map[string]string) {
	tb.Helper()
	if s.Shell != "bash" {
		tb.Fatalf("step %q: shell %q, want bash", s.Name, s.Shell)
	}
	dir := tb.TempDir()
	script, outputs := filepath.Join(dir, "step.sh"), filepath.Join(dir, "github-output")
	if err := os.WriteFile(script, []byte(s.Run), 0o600); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(outputs, nil, 0o600); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir, cmd.Env = r.workspace, append(env, "GITHUB_OUTPUT="+outputs)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			tb.Fatalf("step %q: %v", s.Name, err)
		}
		code = ee.ExitCode()
	}
	data, err := os.ReadFile(outputs)
	if err != nil {
		tb.Fatal(err)
	}
	out, err := parseOutputs(string(data))
	if err != nil {
		tb.Fatalf("step %q: GITHUB_OUTPUT: %v\n%s", s.Name, err, data)
	}
	return code, log.String(), out
}

// parseOutputs reads a GITHUB_OUTPUT file as the runner does: NAME=VALUE
// lines, and NAME<<DELIMITER blocks ended by a line holding the delimiter.
func parseOutputs(data string) (map[string]string, error) {
	out := map[string]string{}
	lines := strings.Split(data, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line == "" {
			continue
		}
		eq, heredoc := strings.Index(line, "="), strings.Index(line, "<<")
		if eq >= 0 && (heredoc < 0 || eq < heredoc) {
			out[line[:eq]] = line[eq+1:]
			continue
		}
		if heredoc < 0 {
			return nil, fmt.Errorf("line %d: %q is neither NAME=VALUE nor NAME<<DELIMITER", i+1, line)
		}
		name, delim := line[:heredoc], line[heredoc+2:]
		start := i + 1
		for i++; i < len(lines) && lines[i] != delim; i++ {
		}
		if i == len(lines) {
			return nil, fmt.Errorf("line %d: %s: delimiter %q never ends the value", start, name, delim)
		}
		out[name] = strings.Join(lines[start:i], "\n")
	}
	return out, nil
}

// stepNamed returns the record of the step with the given name.
func (j jobRun) stepNamed(tb testing.TB, name string) stepRun {
	tb.Helper()
	for _, s := range j.steps {
		if s.name == name {
			return s
		}
	}
	tb.Fatalf("no step named %q", name)
	return stepRun{}
}

// log returns the output of every step that ran, in order.
func (j jobRun) log() string {
	var b strings.Builder
	for _, s := range j.steps {
		fmt.Fprintf(&b, "--- %s (ran %t, exit %d)\n%s", s.name, s.ran, s.code, s.log)
	}
	return b.String()
}
