package targets

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/google/go-cmp/cmp"
	"github.com/moby/moby/client"
	tc "github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/mocks"
)

// testImages are the local images the container tests share, built FROM
// scratch at most once per test binary and removed by TestMain.
var testImages struct {
	once    sync.Once
	adapter string // ENTRYPOINT ["/toolcert", "adapter"]
	mutant  string // ENTRYPOINT ["/toolcert-mutant"]: pass --mutant NAME as the command
	fake    string // ENTRYPOINT ["/fakeadapter"] (testdata/fakeadapter)
	skip    string // why the tests cannot run here
	err     error
}

// TestMain removes the shared images once every test has run.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, name := range []string{testImages.adapter, testImages.mutant, testImages.fake} {
		if name == "" {
			continue
		}
		if err := removeImage(name); err != nil {
			fmt.Fprintf(os.Stderr, "remove test image %s: %v\n", name, err)
		}
	}
	os.Exit(code)
}

// loadTestImages builds the shared images on first use. It disables Ryuk
// for tb (no image can be pulled) and skips tb when no Docker engine
// answers.
func loadTestImages(tb testing.TB) {
	tb.Helper()
	tb.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	testImages.once.Do(buildTestImages)
	if testImages.skip != "" {
		tb.Skipf("container tests skipped: %s", testImages.skip)
	}
	if testImages.err != nil {
		tb.Fatalf("build the test images: %v", testImages.err)
	}
}

// testAdapterImage returns the image whose entrypoint is `toolcert adapter`.
func testAdapterImage(tb testing.TB) string {
	tb.Helper()
	loadTestImages(tb)
	return testImages.adapter
}

// testMutantImage returns the image whose entrypoint is toolcert-mutant.
func testMutantImage(tb testing.TB) string {
	tb.Helper()
	loadTestImages(tb)
	return testImages.mutant
}

// testFakeImage returns the image whose entrypoint is testdata/fakeadapter.
func testFakeImage(tb testing.TB) string {
	tb.Helper()
	loadTestImages(tb)
	return testImages.fake
}

// uniqueName returns prefix and a random suffix, valid in an image name.
func uniqueName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// dockerClient returns a client of a Docker engine that answers, or an error.
func dockerClient(ctx context.Context) (*tc.DockerClient, error) {
	cli, err := tc.NewDockerClientWithOpts(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := cli.Ping(ctx, client.PingOptions{}); err != nil {
		_ = cli.Close()
		return nil, err
	}
	return cli, nil
}

// buildTestImages fills testImages: static binaries of ./cmd/toolcert,
// ./cmd/toolcert-mutant and testdata/fakeadapter, each in an image FROM scratch with a name unique to
// this run.
func buildTestImages() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cli, err := dockerClient(ctx)
	if err != nil {
		testImages.skip = fmt.Sprintf("no Docker engine answers (testcontainers: %v)", err)
		return
	}
	_ = cli.Close()
	dir, err := os.MkdirTemp("", "toolcert-image-")
	if err != nil {
		testImages.err = err
		return
	}
	defer os.RemoveAll(dir)
	provider, err := tc.NewDockerProvider(tc.WithLogger(tclog.NewNoopLogger()))
	if err != nil {
		testImages.err = err
		return
	}
	defer provider.Close()
	tag := uniqueName("run-")
	testImages.adapter, testImages.err = buildStaticImage(ctx, provider, dir, "../cmd/toolcert", "toolcert-test-adapter:"+tag, `"/toolcert", "adapter"`)
	if testImages.err == nil {
		testImages.mutant, testImages.err = buildStaticImage(ctx, provider, dir, "../cmd/toolcert-mutant", "toolcert-test-mutant:"+tag, `"/toolcert-mutant"`)
	}
	if testImages.err == nil {
		testImages.fake, testImages.err = buildStaticImage(ctx, provider, dir, "./testdata/fakeadapter", "toolcert-test-fakeadapter:"+tag, `"/fakeadapter"`)
	}
}

// buildStaticImage builds pkg with CGO_ENABLED=0 into dir and the image
// name FROM scratch holding it, with the given ENTRYPOINT words, and
// returns name.
func buildStaticImage(ctx context.Context, provider *tc.DockerProvider, dir, pkg, name, entrypoint string) (string, error) {
	bin := filepath.Base(pkg)
	build := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, bin), pkg)
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build %s: %w\n%s", pkg, err, out)
	}
	dockerfile := "Dockerfile." + bin
	content := fmt.Sprintf("FROM scratch\nCOPY %s /%s\nENTRYPOINT [%s]\n", bin, bin, entrypoint)
	if err := os.WriteFile(filepath.Join(dir, dockerfile), []byte(content), 0o644); err != nil {
		return "", err
	}
	repo, tag, _ := strings.Cut(name, ":")
	req := &tc.ContainerRequest{FromDockerfile: tc.FromDockerfile{
		Context: dir, Dockerfile: dockerfile, Repo: repo, Tag: tag, KeepImage: true,
	}}
	if _, err := provider.BuildImage(ctx, req); err != nil {
		return "", fmt.Errorf("build image %s: %w", name, err)
	}
	return name, nil
}

// removeImage removes a test image.
func removeImage(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli, err := dockerClient(ctx)
	if err != nil {
		return err
	}
	defer cli.Close()
	_, err = cli.ImageRemove(ctx, name, client.ImageRemoveOptions{Force: true, PruneChildren: true})
	return err
}

// containersOf returns the IDs of the containers, running or not, made from
// image.
func containersOf(tb testing.TB, image string) []string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // also from a Cleanup
	defer cancel()
	cli, err := dockerClient(ctx)
	if err != nil {
		tb.Fatalf("docker client: %v", err)
	}
	defer cli.Close()
	list, err := cli.ContainerList(ctx, client.ContainerListOptions{
		All: true, Filters: make(client.Filters).Add("ancestor", image),
	})
	if err != nil {
		tb.Fatalf("list containers: %v", err)
	}
	var ids []string
	for _, c := range list.Items {
		ids = append(ids, c.ID)
	}
	return ids
}

// startContainer starts a Container target and stops it at the end of the
// test.
func startContainer(tb testing.TB, image string, env Env, opts ...ContainerOption) (*containerInstance, error) {
	tb.Helper()
	ctr, err := NewContainer(image, opts...)
	if err != nil {
		tb.Fatalf("NewContainer: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	inst, err := ctr.Start(ctx, env)
	if err != nil {
		return nil, err
	}
	tb.Cleanup(func() {
		if err := inst.Stop(context.Background()); err != nil {
			tb.Errorf("Stop: %v", err)
		}
	})
	return inst.(*containerInstance), nil
}

func TestContainer(t *testing.T) {
	image := testAdapterImage(t)
	t.Run("serves review_status", func(t *testing.T) { testContainerServes(t, image) })
	t.Run("exits at once", func(t *testing.T) { testContainerExitsAtOnce(t, image) })
	t.Run("exits while running", func(t *testing.T) { testContainerExitsWhileRunning(t, image) })
	t.Run("missing image", testContainerMissingImage)
	t.Run("stop twice", func(t *testing.T) { testContainerStopTwice(t, image) })
	fake := testFakeImage(t)
	t.Run("env and rename", func(t *testing.T) { testContainerEnv(t, fake) })
	t.Run("ignores SIGTERM", func(t *testing.T) { testContainerKill(t, fake) })
	t.Run("never ready", func(t *testing.T) { testContainerNeverReady(t, fake) })
	t.Cleanup(func() {
		for _, img := range []string{image, fake} {
			if ids := containersOf(t, img); len(ids) > 0 {
				t.Errorf("containers of %s left behind: %q", img, ids)
			}
		}
	})
}

// reviewLane returns a lane's env whose mock upstream serves the accepted
// review_status fixture for CR-1042, with the corpus's policy in a folder
// of its own (mounted read-only, apart from the audit folder).
func reviewLane(t *testing.T) Env {
	t.Helper()
	up, err := mocks.NewUpstream()
	if err != nil {
		t.Fatalf("NewUpstream: %v", err)
	}
	t.Cleanup(func() { _ = up.Close() })
	fixture, err := fs.ReadFile(toolcert.Fixtures(), "review_status/accepted/approved.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := up.Program("GET", "/reviews/CR-1042", mocks.JSON(200, fixture)); err != nil {
		t.Fatalf("Program: %v", err)
	}
	policy, err := fs.ReadFile(toolcert.Fixtures(), "policy.json")
	if err != nil {
		t.Fatal(err)
	}
	env := Env{
		UpstreamURL: up.URL(),
		AuditFile:   filepath.Join(t.TempDir(), "audit.jsonl"),
		PolicyFile:  filepath.Join(t.TempDir(), "policy.json"),
		Extra:       DefaultProfile().Vars(),
	}
	if err := os.WriteFile(env.PolicyFile, policy, 0o600); err != nil {
		t.Fatal(err)
	}
	return env
}

func testContainerServes(t *testing.T, image string) {
	env := reviewLane(t)
	inst, err := startContainer(t, image, env)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := inst.Alive(t.Context()); err != nil {
		t.Errorf("Alive: %v", err)
	}
	out, err := NewClient().Invoke(t.Context(), inst.URL(), "review_status", []byte(`{"change_id": "CR-1042"}`), "toolcert-agent")
	if err != nil {
		t.Fatalf("Invoke: %v", err)
	}
	var got struct {
		Tool      string            `json:"tool"`
		RequestID string            `json:"request_id"`
		Outcome   string            `json:"outcome"`
		Data      map[string]string `json:"data"`
	}
	if err := json.Unmarshal(out.Body, &got); err != nil || out.StatusCode != 200 {
		t.Fatalf("Invoke answered %s %s (%v), want 200 and an envelope", out.StatusLine, out.Body, err)
	}
	if got.RequestID == "" {
		t.Errorf("envelope %s has no request_id", out.Body)
	}
	want := got
	want.Tool, want.Outcome = "review_status", "success"
	want.Data = map[string]string{"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice@example.com"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("agent-visible envelope (-want +got):\n%s", diff)
	}
	audit, err := os.ReadFile(env.AuditFile)
	if err != nil {
		t.Fatalf("read the audit log on the host: %v", err)
	}
	var event struct {
		RequestID string `json:"request_id"`
		Tool      string `json:"tool"`
		Gate      string `json:"gate"`
		Reason    string `json:"reason"`
	}
	line, _, _ := bytes.Cut(audit, []byte("\n"))
	if err := json.Unmarshal(line, &event); err != nil {
		t.Fatalf("audit log %q: %v", audit, err)
	}
	wantEvent := event
	wantEvent.RequestID, wantEvent.Tool, wantEvent.Gate, wantEvent.Reason = got.RequestID, "review_status", "none", "ok"
	if diff := cmp.Diff(wantEvent, event); diff != "" {
		t.Errorf("audit event on the host (-want +got):\n%s", diff)
	}
	if logs := inst.Logs(); !strings.Contains(logs, "reference adapter on "+strings.TrimPrefix(inst.URL(), "http://")) {
		t.Errorf("Logs() = %q, want the adapter's start line", logs)
	}
}

func testContainerExitsAtOnce(t *testing.T, image string) {
	began := time.Now()
	_, err := startContainer(t, image, Env{UpstreamURL: "http://127.0.0.1:9"}, WithContainerCmd("--no-such-flag"))
	var exit *ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("Start: %v, want an *ExitError", err)
	}
	if exit.ExitCode != 2 || !strings.Contains(exit.Tail, "no-such-flag") {
		t.Errorf("ExitError code %d, tail %q; want 2 and the adapter's complaint", exit.ExitCode, exit.Tail)
	}
	if took := time.Since(began); took >= defaultReadyTimeout {
		t.Errorf("Start took %s, want a fast failure, not the ready timeout", took)
	}
	if ids := containersOf(t, image); len(ids) > 0 {
		t.Errorf("a failed Start left containers: %q", ids)
	}
}

func testContainerExitsWhileRunning(t *testing.T, image string) {
	inst, err := startContainer(t, image, Env{UpstreamURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if _, err := inst.cli.ContainerKill(t.Context(), inst.ctr.GetContainerID(), client.ContainerKillOptions{Signal: "SIGKILL"}); err != nil {
		t.Fatalf("kill the container: %v", err)
	}
	<-inst.done
	var exit *ExitError
	if err := inst.Alive(t.Context()); !errors.As(err, &exit) || exit.ExitCode != 137 {
		t.Errorf("Alive after a kill: %v, want an *ExitError with code 137", err)
	}
}

func testContainerMissingImage(t *testing.T) {
	missing := uniqueName("toolcert-test-missing:")
	began := time.Now()
	_, err := startContainer(t, missing, Env{UpstreamURL: "http://127.0.0.1:9"})
	if !errors.Is(err, ErrImageNotFound) || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "no registry") {
		t.Errorf("Start: %v, want ErrImageNotFound naming %s and saying no registry is used", err, missing)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("Start took %s, want a fast failure (no pull)", took)
	}
}

func testContainerStopTwice(t *testing.T, image string) {
	inst, err := startContainer(t, image, Env{UpstreamURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	for n := range 2 {
		if err := inst.Stop(t.Context()); err != nil {
			t.Errorf("Stop #%d: %v", n+1, err)
		}
	}
	if err := inst.Alive(t.Context()); !errors.Is(err, ErrStopped) {
		t.Errorf("Alive after Stop: %v, want ErrStopped", err)
	}
	if _, err := inst.cli.ContainerInspect(t.Context(), inst.ctr.GetContainerID(), client.ContainerInspectOptions{}); !cerrdefs.IsNotFound(err) {
		t.Errorf("inspect after Stop: %v, want the container removed", err)
	}
}

func testContainerEnv(t *testing.T, image string) {
	t.Setenv("FAKE_INHERITED", "yes")
	env := Env{UpstreamURL: "http://127.0.0.1:9", Extra: map[string]string{"TOOLCERT_MAX_BYTES": "10"}}
	inst, err := startContainer(t, image, env,
		WithContainerCmd("-listen-var", "FAKE_ADDR"),
		WithContainerRename(map[string]string{"TOOLCERT_LISTEN": "FAKE_ADDR"}),
		WithContainerEnv(map[string]string{"FAKE_EXTRA": "1", "TOOLCERT_MAX_BYTES": "99"}),
	)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get(inst.URL() + "/env")
	if err != nil {
		t.Fatalf("GET /env: %v", err)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if err != nil {
		t.Fatalf("read /env: %v", err)
	}
	vars := strings.Split(string(body), "\n")
	for _, want := range []string{
		"FAKE_ADDR=" + strings.TrimPrefix(inst.URL(), "http://"),
		"TOOLCERT_UPSTREAM_URL=http://127.0.0.1:9",
		"TOOLCERT_MAX_BYTES=10", // the lane's value wins over the extra one
		"FAKE_EXTRA=1",
	} {
		if !slices.Contains(vars, want) {
			t.Errorf("container env lacks %q; got %q", want, vars)
		}
	}
	for _, v := range vars {
		if strings.HasPrefix(v, "FAKE_INHERITED=") || strings.HasPrefix(v, "TOOLCERT_LISTEN=") {
			t.Errorf("container env has %q", v)
		}
	}
}

func testContainerKill(t *testing.T, image string) {
	inst, err := startContainer(t, image, Env{}, WithContainerCmd("-ignore-term"), WithContainerStopGrace(300*time.Millisecond))
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	began := time.Now()
	if err := inst.Stop(t.Context()); err != nil {
		t.Errorf("Stop: %v", err)
	}
	if took := time.Since(began); took < 300*time.Millisecond || took > 5*time.Second {
		t.Errorf("Stop took %s, want the grace (300ms) and then a prompt kill", took)
	}
	if ids := containersOf(t, image); len(ids) > 0 {
		t.Errorf("Stop left containers: %q", ids)
	}
}

func testContainerNeverReady(t *testing.T, image string) {
	_, err := startContainer(t, image, Env{}, WithContainerCmd("-never-ready"), WithReadyTimeout(500*time.Millisecond))
	if !errors.Is(err, ErrNotReady) || !strings.Contains(err.Error(), "fakeadapter: starting") {
		t.Errorf("Start: %v, want ErrNotReady with the container's output", err)
	}
	if ids := containersOf(t, image); len(ids) > 0 {
		t.Errorf("a failed Start left containers: %q", ids)
	}
}

func TestContainerString(t *testing.T) {
	tests := []struct {
		name string
		opts []ContainerOption
		want string
	}{
		{"image only", nil, "container my-adapter:dev"},
		{"arguments quoted", []ContainerOption{WithContainerCmd("--config", "dev config.json")}, "container my-adapter:dev --config 'dev config.json'"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctr, err := NewContainer("my-adapter:dev", tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := ctr.String(); got != tt.want {
				t.Errorf("String() = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := NewContainer(" "); err == nil {
		t.Errorf("NewContainer with a blank image: no error")
	}
}
