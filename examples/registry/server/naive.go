package main

// The naive handlers: each is its tool as first written, with one planted
// defect (DEFECTS.md has the table). Everything else they do is what the
// fixed handlers in tools.go do. One more defect, (f), is in every tool of
// the naive server: client.decode lets encoding/json keep the last of two
// members of the same name.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// getAdvisoryNaive: DEFECT (a). On an error answer it wraps the
// registry's own message into the tool's error, which the agent reads:
// whatever the registry (or whoever can write into its error pages) says
// reaches the model.
func (r *registry) getAdvisoryNaive(ctx context.Context, _ *mcp.CallToolRequest, in advisoryArgs) (*mcp.CallToolResult, Advisory, error) {
	if in.AdvisoryID < 1 {
		return nil, Advisory{}, errArgument("advisory_id", "1 or more")
	}
	var out Advisory
	if err := r.c.getJSON(ctx, "/advisories/{id}", "/advisories/"+strconv.FormatInt(in.AdvisoryID, 10), nil, &out); err != nil {
		if msg, ok := decodeAPIError(err); ok {
			return nil, Advisory{}, fmt.Errorf("registry: %s", msg) // DEFECT (a)
		}
		return nil, Advisory{}, r.fail("get_advisory", "the advisory", err)
	}
	if out.ID != in.AdvisoryID {
		return nil, Advisory{}, r.fail("get_advisory", "the advisory", errMismatch)
	}
	return nil, out, nil
}

// getVersionNaive: DEFECT (b). The description says published_by is null
// for a version the registry mirrored; this handler reads the publisher's
// login without looking, and a null publisher is a nil pointer
// dereference: the panic ends the process (the SDK does not recover
// it), and every later call of the session fails with it.
func (r *registry) getVersionNaive(ctx context.Context, _ *mcp.CallToolRequest, in versionArgs) (*mcp.CallToolResult, versionInfo, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, versionInfo{}, err
	}
	if err := r.versionArg(in.Version); err != nil {
		return nil, versionInfo{}, err
	}
	v, err := r.readVersion(ctx, in)
	if err != nil {
		return nil, versionInfo{}, r.fail("get_version", "the version", err)
	}
	out := info(v)
	out.PublishedBy = &v.PublishedBy.Login // DEFECT (b): v.PublishedBy may be nil
	return nil, out, nil
}

// getUserNaive: DEFECT (c). The login goes into the path as it is, neither
// checked nor escaped: "x/../../admin" asks /admin, "x?admin=true" adds a
// query, and either leaves the route /users/{login}.
func (r *registry) getUserNaive(ctx context.Context, _ *mcp.CallToolRequest, in loginArgs) (*mcp.CallToolResult, User, error) {
	var out User
	if err := r.c.getJSON(ctx, "/users/{login}", "/users/"+in.Login, nil, &out); err != nil { // DEFECT (c)
		return nil, User{}, r.fail("get_user", "the user", err)
	}
	if out.Login != in.Login {
		return nil, User{}, r.fail("get_user", "the user", errMismatch)
	}
	return nil, out, nil
}

// getReadmeNaive: DEFECT (d). A readme can be long, so it reads the body
// with io.ReadAll, without a limit: a registry (or anything between) that
// answers a body of gigabytes has it read whole into memory.
func (r *registry) getReadmeNaive(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, Readme, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, Readme{}, err
	}
	fail := func(err error) (*mcp.CallToolResult, Readme, error) {
		return nil, Readme{}, r.fail("get_readme", "the readme", err)
	}
	ctx, cancel := context.WithTimeout(ctx, callBudget)
	defer cancel()
	resp, err := r.c.fetch(ctx, "/packages/"+url.PathEscape(in.Package)+"/readme", nil)
	if err != nil {
		return fail(err)
	}
	defer resp.Body.Close()
	if err := checkAnswer(resp, http.StatusOK); err != nil {
		return fail(err)
	}
	body, err := io.ReadAll(resp.Body) // DEFECT (d): no limit
	if err != nil {
		return fail(err)
	}
	var out Readme
	if err := r.c.decode(body, http.MethodGet, "/packages/{name}/readme", http.StatusOK, &out); err != nil {
		return fail(err)
	}
	if out.Package != in.Package {
		return fail(errMismatch)
	}
	return nil, out, nil
}

// registryStatsNaive: DEFECT (e). The statistics answer 503 while they are
// recounted, so it retries a 503 until it gets something else, up to 8
// attempts: a registry that is down gets 8 requests per call, past any
// budget of 3.
func (r *registry) registryStatsNaive(ctx context.Context, _ *mcp.CallToolRequest, _ statsArgs) (*mcp.CallToolResult, Stats, error) {
	fail := func(err error) (*mcp.CallToolResult, Stats, error) {
		return nil, Stats{}, r.fail("registry_stats", "the statistics", err)
	}
	ctx, cancel := context.WithTimeout(ctx, callBudget)
	defer cancel()
	var resp *http.Response
	for attempt := 1; attempt <= 8; attempt++ { // DEFECT (e): 8 attempts
		req, err := r.c.request(ctx, http.MethodGet, "/stats", nil, nil)
		if err != nil {
			return fail(err)
		}
		resp, err = r.c.http.Do(req)
		if err != nil {
			return fail(err)
		}
		if resp.StatusCode != http.StatusServiceUnavailable || attempt == 8 {
			break
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return fail(ctx.Err())
		case <-time.After(time.Duration(attempt) * 25 * time.Millisecond):
		}
	}
	defer resp.Body.Close()
	if err := checkAnswer(resp, http.StatusOK); err != nil {
		return fail(err)
	}
	body, err := readBody(resp)
	if err != nil {
		return fail(err)
	}
	var out Stats
	if err := r.c.decode(body, http.MethodGet, "/stats", http.StatusOK, &out); err != nil {
		return fail(err)
	}
	return nil, out, nil
}

// getPackageNaive: DEFECT (g). It shows whatever package the answer is
// about: an answer about "left-pad-evil" to a request for "left-pad" is
// shown as left-pad's. The fixed handler checks the answer's name.
func (r *registry) getPackageNaive(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, Package, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, Package{}, err
	}
	var p Package
	if err := r.c.getJSON(ctx, "/packages/{name}", "/packages/"+url.PathEscape(in.Package), nil, &p); err != nil {
		return nil, Package{}, r.fail("get_package", "the package", err)
	}
	return nil, p, nil // DEFECT (g): p.Name is not compared with in.Package
}
