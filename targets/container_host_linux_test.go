package targets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// helperContainer starts the image helperTarget names as a Container,
// prints "container ID" and sleeps.
func helperContainer() {
	ctr, err := NewContainer(os.Getenv(helperTarget))
	if err != nil {
		helperFail(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inst, err := ctr.Start(ctx, Env{})
	if err != nil {
		helperFail(err)
	}
	fmt.Printf("container %s\n", inst.(*containerInstance).ctr.GetContainerID())
	time.Sleep(time.Hour)
}

// inspectContainer returns the container id, or an error wrapping the
// engine's not-found error once it is gone.
func inspectContainer(tb testing.TB, id string) (client.ContainerInspectResult, error) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cli, err := dockerClient(ctx)
	if err != nil {
		tb.Fatalf("docker client: %v", err)
	}
	defer cli.Close()
	return cli.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
}

// removeContainer removes the container id, if it is still there.
func removeContainer(tb testing.TB, id string) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli, err := dockerClient(ctx)
	if err != nil {
		tb.Errorf("docker client: %v", err)
		return
	}
	defer cli.Close()
	if _, err := cli.ContainerRemove(ctx, id, client.ContainerRemoveOptions{Force: true}); err == nil {
		tb.Errorf("container %.12s was still there at the end of the test", id)
	} else if !cerrdefs.IsNotFound(err) {
		tb.Errorf("remove container %.12s: %v", id, err)
	}
}

// TestContainerOrphansRemoved kills a harness that runs a container with
// SIGKILL, so that it cannot remove its container, and checks that the
// next start of a container target removes it, but not while its harness
// runs.
func TestContainerOrphansRemoved(t *testing.T) {
	image := testFakeImage(t)
	harness, words := startHarness(t, "container", image, "container")
	id := words[0]
	t.Cleanup(func() { removeContainer(t, id) })
	res, err := inspectContainer(t, id)
	if err != nil {
		t.Fatalf("inspect the harness's container: %v", err)
	}
	labels := res.Container.Config.Labels
	if labels[labelPid] != strconv.Itoa(harness.Process.Pid) || labels[labelRun] == "" || labels[labelPidStart] == "" || labels[labelPidSpace] != harnessOwner().space {
		t.Errorf("the container's labels %q do not name its harness %d in this pid space", labels, harness.Process.Pid)
	}

	if _, err := startContainer(t, image, Env{}); err != nil {
		t.Fatalf("Start while the other harness runs: %v", err)
	}
	if res, err := inspectContainer(t, id); err != nil || !res.Container.State.Running {
		t.Fatalf("a start removed or stopped the container of a harness that runs: %v", err)
	}

	killHarness(t, harness)
	if _, err := inspectContainer(t, id); err != nil {
		t.Fatalf("the container of the killed harness is gone before the next start (%v): the test shows nothing", err)
	}
	if _, err := startContainer(t, image, Env{}); err != nil {
		t.Fatalf("Start after the other harness died: %v", err)
	}
	if _, err := inspectContainer(t, id); !cerrdefs.IsNotFound(err) {
		t.Errorf("the container %.12s of the killed harness is still there after the next start (%v)", id, err)
	}
}

func TestContainerExposed(t *testing.T) {
	fake, reference := testFakeImage(t), testAdapterImage(t)
	tests := []struct {
		name  string
		image string
		cmd   []string
		// want is the start of the one entry Exposed returns, "" for none
		// (PORT: the port of the listen address), and what it names of
		// the process that listens.
		want, process string
	}{
		{"the reference on the loopback address it was given", reference, nil, "", ""},
		{"every IPv4 interface", fake, []string{"-bind", "0.0.0.0"}, "tcp 0.0.0.0:PORT (pid ", "/fakeadapter -bind 0.0.0.0)"},
		{"a child in the container on every interface", fake, []string{"-spawn", "group", "-spawn-listen", "0.0.0.0:0"}, "tcp 0.0.0.0:", "/fakeadapter -hostile-role sleeper 0.0.0.0:0)"},
		{"a child in the container on loopback", fake, []string{"-spawn", "setsid", "-spawn-listen", "127.0.0.1:0"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var opts []ContainerOption
			if tt.cmd != nil {
				opts = append(opts, WithContainerCmd(tt.cmd...))
			}
			inst, err := startContainer(t, tt.image, Env{UpstreamURL: "http://127.0.0.1:9"}, opts...)
			if err != nil {
				t.Fatalf("Start: %v", err)
			}
			got, err := inst.Exposed(t.Context())
			if err != nil {
				t.Fatalf("Exposed: %v", err)
			}
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("Exposed() = %q, want none", got)
				}
				return
			}
			_, port, _ := net.SplitHostPort(strings.TrimPrefix(inst.URL(), "http://"))
			want := everyInterface(strings.Replace(tt.want, "PORT", port, 1))
			if len(got) != 1 || !want.MatchString(got[0]) || !strings.HasSuffix(got[0], tt.process) {
				t.Errorf("Exposed() = %q, want one entry matching %s and ending %q", got, want, tt.process)
			}
			if err := inst.Stop(t.Context()); err != nil {
				t.Errorf("Stop: %v", err)
			}
			if _, err := inst.Exposed(t.Context()); !errors.Is(err, ErrStopped) {
				t.Errorf("Exposed after Stop: %v, want ErrStopped", err)
			}
		})
	}
}

// TestContainerKeepsTestcontainersQuiet: a harness that starts a container
// target prints nothing of testcontainers-go's own (its "Connected to
// docker" banner, the Docker host it resolved) on its standard error. The
// stand-in harness is a fresh process, as the banner comes once per
// process; its image is missing, which fails after the banner would be.
func TestContainerKeepsTestcontainersQuiet(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	cli, err := dockerClient(ctx)
	if err != nil {
		t.Skipf("no Docker engine answers: %v", err)
	}
	cli.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHarnessHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=container", helperTarget+"=toolcert-no-such-image:never", "TESTCONTAINERS_RYUK_DISABLED=true")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	_ = cmd.Run()
	if !strings.Contains(stdout.String(), ErrImageNotFound.Error()) {
		t.Fatalf("the stand-in harness did not fail on the missing image:\nstdout:\n%s\nstderr:\n%s", &stdout, &stderr)
	}
	for _, noise := range []string{"Connected to docker", "Resolved Docker Host", "Testcontainers for Go"} {
		if strings.Contains(stderr.String(), noise) {
			t.Errorf("the harness's standard error holds testcontainers' %q:\n%s", noise, &stderr)
		}
	}
}
