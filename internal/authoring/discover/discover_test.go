package discover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/authoring/openapi"
	"github.com/toolcert/toolcert/internal/runconfig"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// The pet server is written as MCP servers are: typed decoding that drops
// what it does not declare, its upstream from PETS_API_URL, a whoami
// before every call.

type pet struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Owner *struct {
		Login string `json:"login"`
	} `json:"owner,omitempty"`
}

type petArgs struct {
	ID string `json:"id"`
}

type listArgs struct {
	Limit int `json:"limit"`
}

// callCount counts the calls of each tool; the server's handlers run
// concurrently.
type callCount struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *callCount) add(tool string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[tool]++
}

func (c *callCount) get(tool string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[tool]
}

// petServer builds the test server; calls counts the tools called.
func petServer(calls *callCount) targets.MCPBuildFunc {
	return func(env targets.Env) (*mcp.Server, io.Closer, error) {
		base := env.Extra["PETS_API_URL"]
		get := func(path string, v any) error {
			if base == "" {
				return fmt.Errorf("PETS_API_URL is not set")
			}
			for _, p := range []string{"/whoami", path} {
				resp, err := http.Get(base + p)
				if err != nil {
					return err
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					return fmt.Errorf("pets: %s", b)
				}
				if p == path {
					return json.Unmarshal(b, v)
				}
			}
			return nil
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "pets-mcp", Version: "1.0"}, nil)
		ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
		mcp.AddTool(s, &mcp.Tool{Name: "get_pet", Annotations: ro}, func(ctx context.Context, _ *mcp.CallToolRequest, in petArgs) (*mcp.CallToolResult, pet, error) {
			calls.add("get_pet")
			var p pet
			err := get("/pets/"+url.PathEscape(in.ID), &p)
			return nil, p, err
		})
		mcp.AddTool(s, &mcp.Tool{Name: "list_pets", Annotations: ro}, func(ctx context.Context, _ *mcp.CallToolRequest, in listArgs) (*mcp.CallToolResult, any, error) {
			calls.add("list_pets")
			var ps []pet
			if err := get(fmt.Sprintf("/pets?limit=%d", in.Limit), &ps); err != nil {
				return nil, nil, err
			}
			b, _ := json.Marshal(ps)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
		})
		mcp.AddTool(s, &mcp.Tool{Name: "pet_summary", Annotations: ro}, func(ctx context.Context, _ *mcp.CallToolRequest, in petArgs) (*mcp.CallToolResult, any, error) {
			calls.add("pet_summary")
			var p pet
			if err := get("/pets/"+url.PathEscape(in.ID), &p); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "The pet " + p.Name + " has the id " + p.ID + "."}}}, nil, nil
		})
		yes := true
		mcp.AddTool(s, &mcp.Tool{Name: "delete_pet", Annotations: &mcp.ToolAnnotations{DestructiveHint: &yes}}, func(ctx context.Context, _ *mcp.CallToolRequest, in petArgs) (*mcp.CallToolResult, any, error) {
			calls.add("delete_pet")
			return nil, nil, nil
		})
		mcp.AddTool(s, &mcp.Tool{Name: "version", Annotations: ro}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			calls.add("version")
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pets-mcp 1.0"}}}, nil, nil
		})
		return s, nil, nil
	}
}

func loadPets(t *testing.T) *openapi.Description {
	t.Helper()
	b, err := os.ReadFile("testdata/pets.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := openapi.Load(b, openapi.Options{BaseDir: "testdata"})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestDiscoverPets(t *testing.T) {
	desc := loadPets(t)
	calls := &callCount{}
	res, err := Run(context.Background(), Options{
		Target: targets.NewInProcessMCP("pets", petServer(calls)), Description: desc,
		Prefixes: []string{PrefixOf(desc.Title())},
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls.get("delete_pet") != 0 {
		t.Errorf("the destructive tool was called %d times", calls.get("delete_pet"))
	}
	if got := strings.Join(res.Wired, ","); got != "PETS_API_URL" {
		t.Errorf("wired %q, want PETS_API_URL", got)
	}
	byName := map[string]Tool{}
	for _, tl := range res.Tools {
		byName[tl.Name] = tl
	}
	want := map[string]struct{ route, result, data, wrap string }{
		"get_pet":     {"GET /pets/{petId}", "structured", "", ""},
		"list_pets":   {"GET /pets", "text", "", "data"},
		"pet_summary": {"GET /pets/{petId}", "text", "", ""},
	}
	for name, w := range want {
		tl := byName[name]
		if tl.Mapping == nil {
			t.Errorf("%s: left out: %s", name, tl.LeftOut)
			continue
		}
		m := tl.Mapping
		if got := m.Primary.Op.Method + " " + m.Primary.Op.Path; got != w.route {
			t.Errorf("%s: route %s, want %s", name, got, w.route)
		}
		if m.View.Result != w.result || m.View.Data != w.data || m.View.Wrap != w.wrap {
			t.Errorf("%s: view %+v, want %+v", name, m.View, w)
		}
	}
	if m := byName["get_pet"].Mapping; m != nil {
		if got := strings.Join(m.View.Shown, ","); got != "/id,/name,/owner/login" {
			t.Errorf("get_pet shows %s, want /id,/name,/owner/login", got)
		}
		if m.Params["petId"] != "id" {
			t.Errorf("get_pet: petId comes from %q, want id", m.Params["petId"])
		}
	}
	if m := byName["list_pets"].Mapping; m != nil && m.Params["limit"] != "limit" {
		t.Errorf("list_pets: limit comes from %q, want limit (%+v)", m.Params["limit"], m.Primary)
	}
	if !byName["pet_summary"].Mapping.View.Prose {
		t.Error("pet_summary: its text is prose")
	}
	if tl := byName["version"]; tl.Mapping != nil || !strings.Contains(tl.LeftOut, "no request") {
		t.Errorf("version: want left out for no request, got %q", tl.LeftOut)
	}
	if tl := byName["delete_pet"]; !strings.Contains(tl.LeftOut, "destructive") {
		t.Errorf("delete_pet: want left out as destructive, got %q", tl.LeftOut)
	}
	if len(res.Side) != 1 || res.Side[0].Path != "/whoami" {
		t.Errorf("side routes %+v, want GET /whoami", res.Side)
	}

	dir := t.TempDir()
	if d := os.Getenv("DISCOVER_KEEP"); d != "" {
		dir = d
	}
	w, err := Write(res, WriteOptions{Dir: dir, Target: targets.Spec{Kind: targets.KindMCPStdio, Command: "pets-mcp"}, Description: desc, DescriptionPath: "testdata/pets.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Failed) > 0 {
		t.Fatalf("tools not written: %v", w.Failed)
	}
	for _, wt := range w.Tools {
		if len(wt.Problem) > 0 {
			t.Errorf("%s: lint problems: %v", wt.Name, wt.Problem)
		}
	}
	file, err := runconfig.Load(filepath.Join(dir, "toolcert.yaml"))
	if err != nil {
		b, _ := os.ReadFile(filepath.Join(dir, "toolcert.yaml"))
		t.Fatalf("%v\n%s", err, b)
	}
	run, err := runconfig.Merge(file, runconfig.DefaultFlags(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if run.Target.Env["PETS_API_URL"] != "{{.UpstreamURL}}" {
		t.Errorf("env %v: want PETS_API_URL wired", run.Target.Env)
	}
	if m := run.Tools["get_pet"]; m.Arguments != `{"id": {{json .petId}}}` {
		t.Errorf("get_pet arguments %q", m.Arguments)
	}
	c := corpus.New(os.DirFS(filepath.Join(dir, "fixtures")))
	if probs := corpus.Lint(c, time.Now(), corpus.Limits{}); len(probs) > 0 {
		t.Errorf("lint: %v", probs)
	}
	if side, err := c.SideRoutes(); err != nil || len(side) != 1 {
		t.Errorf("routes.json: %v %v", side, err)
	}
	for _, name := range []string{"get_pet", "list_pets", "pet_summary"} {
		if _, err := c.Tool(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if got := strings.Join(run.Tools["get_pet"].Compare.Hidden, ","); got != "/born,/owner/email,/tag" {
		t.Errorf("get_pet hides %q, want /born,/owner/email,/tag", got)
	}
	if got := strings.Join(run.Tools["list_pets"].Compare.Hidden, ","); got != "/data/*/born,/data/*/owner/email,/data/*/tag" {
		t.Errorf("list_pets hides %q", got)
	}
	b, err := os.ReadFile(filepath.Join(dir, "fixtures", "get_pet", "accepted", "discovered.json"))
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatal(err)
	}
	if _, ok := body["tag"]; !ok {
		t.Errorf("the accepted answer lacks tag: it must stay an answer the upstream could send: %s", b)
	}
}

// TestDiscoverRealUpstream learns the pet server against a real pet shop
// on loopback, with no description: the route from the request, the
// schema from the answer; an upstream off loopback is refused.
func TestDiscoverRealUpstream(t *testing.T) {
	shop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/whoami":
			fmt.Fprint(w, `{"login": "clerk"}`)
		case r.URL.Path == "/pets":
			fmt.Fprint(w, `[{"id": "rex", "name": "Rex", "tag": "dog"}]`)
		case strings.HasPrefix(r.URL.Path, "/pets/"):
			fmt.Fprintf(w, `{"id": %q, "name": "Rex", "tag": "dog", "owner": {"login": "ann", "email": "ann@example.com"}}`, strings.TrimPrefix(r.URL.Path, "/pets/"))
		default:
			w.WriteHeader(404)
			fmt.Fprint(w, `{"message": "no such route"}`)
		}
	}))
	defer shop.Close()
	calls := &callCount{}
	res, err := Run(context.Background(), Options{Target: targets.NewInProcessMCP("pets", petServer(calls)), Upstream: shop.URL, Env: []string{"PETS_API_URL"}})
	if err != nil {
		t.Fatal(err)
	}
	var mapped []string
	for _, tl := range res.Mapped() {
		mapped = append(mapped, tl.Name+" "+tl.Mapping.Method+" "+tl.Mapping.Template)
	}
	if got := strings.Join(mapped, "; "); got != "get_pet GET /pets/{id}; list_pets GET /pets; pet_summary GET /pets/{id}" {
		t.Errorf("mapped %q", got)
	}
	dir := t.TempDir()
	w, err := Write(res, WriteOptions{Dir: dir, Target: targets.Spec{Kind: targets.KindMCPStdio, Command: "pets-mcp"}, Upstream: shop.URL})
	if err != nil || len(w.Failed) > 0 {
		t.Fatalf("write: %v %v", err, w)
	}
	c := corpus.New(os.DirFS(filepath.Join(dir, "fixtures")))
	if probs := corpus.Lint(c, time.Now(), corpus.Limits{}); len(probs) > 0 {
		t.Errorf("lint: %v", probs)
	}
	file, err := runconfig.Load(filepath.Join(dir, "toolcert.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	run, err := runconfig.Merge(file, runconfig.DefaultFlags(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := run.Tools["get_pet"]; m.Arguments != `{"id": {{json .id}}}` {
		t.Errorf("get_pet arguments %q", m.Arguments)
	}
	for _, bad := range []string{"http://192.0.2.1:8080", "https://api.example.com"} {
		if _, err := Run(context.Background(), Options{Target: targets.NewInProcessMCP("pets", petServer(calls)), Upstream: bad}); !errors.Is(err, ErrNotLoopback) {
			t.Errorf("upstream %s: %v, want ErrNotLoopback", bad, err)
		}
	}
}

// TestDiscoveredCorpusRuns runs what discover wrote of the pet server: the
// honest answer of every tool passes at level safe through its tool map
// (structured with hidden members, a bare JSON list wrapped, prose), and a
// server that shows another pet's name fails it, so the check is real.
func TestDiscoveredCorpusRuns(t *testing.T) {
	desc := loadPets(t)
	res, err := Run(context.Background(), Options{Target: targets.NewInProcessMCP("pets", petServer(&callCount{})), Description: desc, Prefixes: []string{"PETS"}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Write(res, WriteOptions{Dir: dir, Target: targets.Spec{Kind: targets.KindMCPStdio, Command: "pets-mcp"}, Description: desc, DescriptionPath: "pets.yaml"}); err != nil {
		t.Fatal(err)
	}
	file, err := runconfig.Load(filepath.Join(dir, "toolcert.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := runconfig.Merge(file, runconfig.DefaultFlags(), nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(build targets.MCPBuildFunc, profile ...targets.Profile) map[string]string {
		env := map[string]string{}
		wrapped := func(e targets.Env) (*mcp.Server, io.Closer, error) {
			e.Extra = map[string]string{"PETS_API_URL": e.UpstreamURL}
			return build(e)
		}
		cfg := runner.Config{
			Target: targets.NewInProcessMCP("pets", wrapped), Fixtures: os.DirFS(filepath.Join(dir, "fixtures")),
			Features: os.DirFS(filepath.Join(dir, "features")), Tools: rc.Tools, Level: reports.LevelSafe,
			AllowOpenDecisions: true, Seed: 7, Concurrency: 2,
		}
		if len(profile) > 0 {
			cfg.Profile = profile[0]
		}
		r, err := runner.Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.Scenarios {
			for _, c := range s.Cases {
				if strings.HasSuffix(c.ID, "/accepted") || strings.Contains(c.ID, "/over_byte_limit") {
					env[c.ID] = string(c.Levels[reports.LevelSafe])
				}
			}
		}
		return env
	}
	got := run(petServer(&callCount{}))
	for _, id := range []string{"get_pet/discovered/accepted", "list_pets/discovered/accepted", "pet_summary/discovered/accepted"} {
		if got[id] != "passed" {
			t.Errorf("%s: %q at level safe, want passed (all: %v)", id, got[id], got)
		}
	}
	// The pet server reads any body whole: with no profile it declares no
	// byte limit, and level safe does not hold it to the default one; a
	// profile declares one, and then it fails.
	if id := "get_pet/discovered/over_byte_limit#string"; got[id] != string(reports.StrictOnly) {
		t.Errorf("%s without a profile: %q at level safe, want strict only", id, got[id])
	}
	if id, got := "get_pet/discovered/over_byte_limit#string", run(petServer(&callCount{}), targets.DefaultProfile()); got[id] != "failed" {
		t.Errorf("%s with a profile: %q at level safe, want failed", id, got[id])
	}
	liar := func(e targets.Env) (*mcp.Server, io.Closer, error) {
		s, c, err := petServer(&callCount{})(e)
		mcp.AddTool(s, &mcp.Tool{Name: "get_pet"}, func(ctx context.Context, _ *mcp.CallToolRequest, in petArgs) (*mcp.CallToolResult, pet, error) {
			return nil, pet{ID: in.ID, Name: "someone else"}, nil
		})
		return s, c, err
	}
	if got := run(liar); got["get_pet/discovered/accepted"] != "failed" {
		t.Errorf("a server showing another name: get_pet's honest answer %q, want failed", got["get_pet/discovered/accepted"])
	}
}

// TestNamedToolsOnly: --tools calls the tools it names and no other, a
// destructive one too (against the mock).
func TestNamedToolsOnly(t *testing.T) {
	calls := &callCount{}
	res, err := Run(context.Background(), Options{Target: targets.NewInProcessMCP("pets", petServer(calls)), Description: loadPets(t), Tools: []string{"delete_pet", "get_pet"}, Env: []string{"PETS_API_URL"}})
	if err != nil {
		t.Fatal(err)
	}
	if calls.get("delete_pet") != 1 || calls.get("get_pet") != 1 || calls.get("list_pets")+calls.get("pet_summary")+calls.get("version") != 0 {
		t.Errorf("calls %v: want delete_pet and get_pet once, nothing else", calls.n)
	}
	for _, tl := range res.Tools {
		if tl.Name == "list_pets" && tl.LeftOut != "not named in --tools" {
			t.Errorf("list_pets: %q", tl.LeftOut)
		}
	}
}

// TestHostileNamesStayText: a server's name and a tool's error that hold
// terminal escapes and a newline reach the progress lines, DISCOVERY.md
// and toolcert.yaml as text: no escape byte, and no key the YAML comment
// would let in.
func TestHostileNamesStayText(t *testing.T) {
	hostile := "evil\x1b[2J\x1b]0;pwned\x07\nallow-open-decisions: false"
	build := func(env targets.Env) (*mcp.Server, io.Closer, error) {
		srv := mcp.NewServer(&mcp.Implementation{Name: hostile, Version: "1"}, nil)
		mcp.AddTool(srv, &mcp.Tool{Name: "broken", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New(hostile)
		})
		mcp.AddTool(srv, &mcp.Tool{Name: "get_pet"}, func(ctx context.Context, _ *mcp.CallToolRequest, in petArgs) (*mcp.CallToolResult, pet, error) {
			var p pet
			resp, err := http.Get(env.Extra["PETS_API_URL"] + "/pets/" + url.PathEscape(in.ID))
			if err != nil {
				return nil, p, err
			}
			defer resp.Body.Close()
			return nil, p, json.NewDecoder(resp.Body).Decode(&p)
		})
		return srv, nil, nil
	}
	var progress strings.Builder
	res, err := Run(context.Background(), Options{Target: targets.NewInProcessMCP("hostile", build), Description: loadPets(t), Env: []string{"PETS_API_URL"}, Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Write(res, WriteOptions{Dir: dir, Target: targets.Spec{Kind: targets.KindMCPStdio, Command: "x"}, Description: loadPets(t), DescriptionPath: "pets.yaml"}); err != nil {
		t.Fatal(err)
	}
	summary, _ := os.ReadFile(filepath.Join(dir, "DISCOVERY.md"))
	config, err := os.ReadFile(filepath.Join(dir, "toolcert.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if file, err := runconfig.Load(filepath.Join(dir, "toolcert.yaml")); err != nil {
		t.Errorf("toolcert.yaml: %v", err)
	} else if run, err := runconfig.Merge(file, runconfig.DefaultFlags(), nil); err != nil || !run.AllowOpenDecisions {
		t.Errorf("the server's name changed a key of toolcert.yaml: %v %+v", err, run.Flags)
	}
	for name, text := range map[string]string{"progress": progress.String(), "DISCOVERY.md": string(summary), "toolcert.yaml": string(config)} {
		if strings.ContainsAny(text, "\x1b\x07") || strings.Contains(text, "\nallow-open-decisions: false") {
			t.Errorf("%s holds the server's text raw:\n%q", name, text)
		}
	}
	if !strings.Contains(string(summary), `evil\x1b[2J`) {
		t.Errorf("DISCOVERY.md does not name the server as text:\n%s", summary)
	}
}
