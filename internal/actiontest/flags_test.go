package actiontest

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// testFlags runs the run step with every input that becomes a flag,
// without and with a signing key, records the arguments toolcert gets, and
// checks that each flag among them is in the help of `toolcert run` and
// `toolcert certify` of bin.
func testFlags(t *testing.T, a actionFile, bin string) {
	inputs := map[string]string{}
	for _, name := range []string{"target-cmd", "target-image", "target-url", "config", "features", "fixtures", "profile", "baseline"} {
		inputs[name] = "value-of-" + name
	}
	for _, tc := range []struct{ command, key string }{{"run", ""}, {"certify", "a key"}} {
		t.Run(tc.command, func(t *testing.T) {
			help, ok := helpFlags(t, bin, tc.command)
			if !ok {
				t.Skipf("this toolcert has no %s command (toolcert help %s fails): the action's %s flags are not checked", tc.command, tc.command, tc.command)
			}
			inputs["signing-key"] = tc.key
			argv := recordArgs(t, a, inputs)
			if argv[0] != tc.command {
				t.Fatalf("the action runs toolcert %s, want %s", argv[0], tc.command)
			}
			for _, arg := range argv[1:] {
				name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
				if strings.HasPrefix(arg, "-") && !help[name] {
					t.Errorf("the action passes %s, which toolcert help %s does not list", arg, tc.command)
				}
			}
		})
	}
}

// helpFlags returns the flags `toolcert help COMMAND` lists, and false
// when toolcert has no such command.
func helpFlags(t *testing.T, bin, command string) (map[string]bool, bool) {
	t.Helper()
	out, err := exec.Command(bin, "help", command).CombinedOutput()
	if err != nil {
		return nil, false
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(string(out), -1) {
		flags[m[1]] = true
	}
	if len(flags) == 0 {
		t.Fatalf("toolcert help %s lists no flag:\n%s", command, out)
	}
	return flags, true
}

// recordArgs runs the action's run step with a fake toolcert and returns
// the arguments it got.
func recordArgs(t *testing.T, a actionFile, inputs map[string]string) []string {
	t.Helper()
	r := newFakeRunner(t)
	fakeDir := t.TempDir()
	r.built = filepath.Join(fakeDir, "toolcert")
	writeFile(t, r.built, fakeToolcert, 0o755)
	r.env = []string{"FAKE_DIR=" + fakeDir}
	build := r.runStep(t, a, "build", inputs)
	ctx := r.context(t, a, inputs)
	ctx.steps["build"] = build.outputs
	sr := r.step(t, ctx, a.stepByID(t, "run"), false, r.summaryFile(t))
	if sr.code != 0 {
		t.Fatalf("run step exits %d\n%s", sr.code, sr.log)
	}
	argv := readFile(t, filepath.Join(fakeDir, "argv"))
	return strings.Split(strings.TrimSuffix(argv, "\x00"), "\x00")
}
