package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// registry serves the tools. The handlers in this file are the fixed
// ones, and the ones both modes share; naive.go holds the naive
// handlers that differ, one planted defect each.
type registry struct {
	c     *client
	fixed bool
	log   *log.Logger
}

// The tools' arguments. The SDK infers each tool's input schema from
// them (a member without omitempty is required; no other member is
// allowed) and checks every call against it before the handler runs.
type (
	searchArgs struct {
		Query   string `json:"query" jsonschema:"search terms, matched against names, descriptions and keywords"`
		Page    int64  `json:"page,omitempty" jsonschema:"the page of results, from 1 (default 1)"`
		PerPage int64  `json:"per_page,omitempty" jsonschema:"results per page, 1 to 100 (default 20)"`
	}
	packageArgs struct {
		Package string `json:"package" jsonschema:"the package's name, such as left-pad"`
	}
	versionArgs struct {
		Package string `json:"package" jsonschema:"the package's name, such as left-pad"`
		Version string `json:"version" jsonschema:"the version, such as 1.3.0"`
	}
	dependentsArgs struct {
		Package string `json:"package" jsonschema:"the package's name, such as left-pad"`
		Page    int64  `json:"page,omitempty" jsonschema:"the page of dependents, from 1 (default 1)"`
	}
	loginArgs struct {
		Login string `json:"login" jsonschema:"the user's login, such as azer"`
	}
	advisoryArgs struct {
		AdvisoryID int64 `json:"advisory_id" jsonschema:"the advisory's number, such as 2048"`
	}
	advisoriesArgs struct {
		Package  string `json:"package" jsonschema:"the package's name, such as left-pad"`
		Severity string `json:"severity,omitempty" jsonschema:"only advisories of this severity: low, moderate, high or critical (default: all)"`
	}
	statsArgs struct{}
	yankArgs  struct {
		Package string `json:"package" jsonschema:"the package's name, such as left-pad"`
		Version string `json:"version" jsonschema:"the version to yank, such as 1.2.0"`
		Reason  string `json:"reason,omitempty" jsonschema:"why, for the package's users (at most 200 characters)"`
	}
	ownerArgs struct {
		Package string `json:"package" jsonschema:"the package's name, such as left-pad"`
		Login   string `json:"login" jsonschema:"the login of the owner to remove"`
	}
)

// register adds the tools to server: the naive handler of a tool with a
// planted defect, unless the server is fixed.
func (r *registry) register(server *mcp.Server) {
	yes := true
	read := func(title string) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, OpenWorldHint: &yes}
	}
	write := func(title string) *mcp.ToolAnnotations {
		return &mcp.ToolAnnotations{Title: title, DestructiveHint: &yes, OpenWorldHint: &yes}
	}
	getPackage, getVersion, getReadme, getUser, getAdvisory, registryStats := r.getPackage, r.getVersion, r.getReadme, r.getUser, r.getAdvisory, r.registryStats
	if !r.fixed {
		getPackage, getVersion, getReadme, getUser, getAdvisory, registryStats = r.getPackageNaive, r.getVersionNaive, r.getReadmeNaive, r.getUserNaive, r.getAdvisoryNaive, r.registryStatsNaive
	}

	mcp.AddTool(server, &mcp.Tool{Name: "search_packages", Annotations: read("Search packages"),
		Description: "Search the registry's packages by name, description and keywords; one page of results, best match first."}, r.searchPackages)
	mcp.AddTool(server, &mcp.Tool{Name: "get_package", Annotations: read("Get a package"),
		Description: "A package's metadata: description, latest version, license, repository, keywords, owners, number of versions, dates, whether it is deprecated."}, getPackage)
	mcp.AddTool(server, &mcp.Tool{Name: "package_summary", Annotations: read("Summarize a package"),
		Description: "A short Markdown summary of a package, for reading aloud or pasting: name, latest version, description, license, owners."}, r.packageSummary)
	mcp.AddTool(server, &mcp.Tool{Name: "get_latest_release", Annotations: read("Get a package's latest release"),
		Description: "A package's latest version with its publication date, license, checksum and number of dependencies (reads the package, then that version)."}, r.getLatestRelease)
	mcp.AddTool(server, &mcp.Tool{Name: "list_versions", Annotations: read("List a package's versions"),
		Description: "Every published version of a package, newest first, yanked ones included."}, r.listVersions)
	mcp.AddTool(server, &mcp.Tool{Name: "get_version", Annotations: read("Get a version"),
		Description: "One version of a package: publication date, whether it is yanked, license, checksum, size, publisher's login and dependencies."}, getVersion)
	mcp.AddTool(server, &mcp.Tool{Name: "list_dependents", Annotations: read("List a package's dependents"),
		Description: "The packages that depend on a package, most downloaded first, one page at a time."}, r.listDependents)
	mcp.AddTool(server, &mcp.Tool{Name: "get_downloads", Annotations: read("Get download counts"),
		Description: "A package's download counts: all time, last day, last week, last month."}, r.getDownloads)
	mcp.AddTool(server, &mcp.Tool{Name: "get_readme", Annotations: read("Get a package's readme"),
		Description: "The readme of a package's latest version, in Markdown."}, getReadme)
	mcp.AddTool(server, &mcp.Tool{Name: "get_user", Annotations: read("Get a user"),
		Description: "A registry user: display name, profile URL, when they joined, how many packages they own."}, getUser)
	mcp.AddTool(server, &mcp.Tool{Name: "list_user_packages", Annotations: read("List a user's packages"),
		Description: "The packages a user owns."}, r.listUserPackages)
	mcp.AddTool(server, &mcp.Tool{Name: "get_advisory", Annotations: read("Get a security advisory"),
		Description: "A security advisory by its number: package, severity, title, affected and patched versions, references."}, getAdvisory)
	mcp.AddTool(server, &mcp.Tool{Name: "list_advisories", Annotations: read("List a package's advisories"),
		Description: "The security advisories of a package, newest first, optionally of one severity."}, r.listAdvisories)
	mcp.AddTool(server, &mcp.Tool{Name: "registry_stats", Annotations: read("Get the registry's statistics"),
		Description: "The registry's totals: packages, versions, users, downloads."}, registryStats)
	mcp.AddTool(server, &mcp.Tool{Name: "yank_version", Annotations: write("Yank a version"),
		Description: "Yank a version of a package you own: it is never chosen again by new installs. Needs REGISTRY_TOKEN."}, r.yankVersion)
	mcp.AddTool(server, &mcp.Tool{Name: "remove_owner", Annotations: write("Remove a package owner"),
		Description: "Remove a user from a package's owners (not the last one). Needs REGISTRY_TOKEN."}, r.removeOwner)
}

// fail logs why a call failed (to standard error) and returns the fixed
// text the agent reads: nothing of the registry's answer is in it.
func (r *registry) fail(tool, what string, err error) error {
	r.log.Printf("%s: %v", tool, err)
	return fmt.Errorf("registry: %s could not be read", what)
}

// errArgument is the failure of an argument the registry would not take;
// the text names the argument, never echoes its value.
func errArgument(name, want string) error {
	return fmt.Errorf("registry: %s must be %s", name, want)
}

// errMismatch means the registry answered about another object than the
// one asked for.
var errMismatch = errors.New("the answer is about another object than the one asked for")

// checkArg checks an argument against a schema of the description's
// components (a path segment or a query value the registry takes).
func (r *registry) checkArg(schema string, value string) bool {
	return r.c.schema.validate(map[string]any{"$ref": "#/components/schemas/" + schema}, value, "") == nil
}

// packageArg checks a package name argument.
func (r *registry) packageArg(name string) error {
	if !r.checkArg("PackageName", name) {
		return errArgument("package", "a package name: lower-case letters, digits, '.', '_' and '-', starting with a letter or digit")
	}
	return nil
}

// loginArg checks a login argument.
func (r *registry) loginArg(login string) error {
	if !r.checkArg("Login", login) {
		return errArgument("login", "a login: lower-case letters, digits and '-', starting with a letter or digit")
	}
	return nil
}

// versionArg checks a version argument.
func (r *registry) versionArg(v string) error {
	if !r.checkArg("VersionNumber", v) {
		return errArgument("version", "a semantic version such as 1.3.0")
	}
	return nil
}

func (r *registry) searchPackages(ctx context.Context, _ *mcp.CallToolRequest, in searchArgs) (*mcp.CallToolResult, PackageList, error) {
	if in.Page == 0 {
		in.Page = 1
	}
	if in.PerPage == 0 {
		in.PerPage = 20
	}
	if n := utf8.RuneCountInString(in.Query); n < 1 || n > 100 {
		return nil, PackageList{}, errArgument("query", "1 to 100 characters")
	}
	if in.Page < 1 {
		return nil, PackageList{}, errArgument("page", "1 or more")
	}
	if in.PerPage < 1 || in.PerPage > 100 {
		return nil, PackageList{}, errArgument("per_page", "between 1 and 100")
	}
	q := url.Values{"q": {in.Query}, "page": {strconv.FormatInt(in.Page, 10)}, "per_page": {strconv.FormatInt(in.PerPage, 10)}}
	var out PackageList
	if err := r.c.getJSON(ctx, "/packages", "/packages", q, &out); err != nil {
		return nil, PackageList{}, r.fail("search_packages", "the search", err)
	}
	return nil, out, nil
}

// readPackage reads a package and checks that the answer is about it.
func (r *registry) readPackage(ctx context.Context, name string) (Package, error) {
	var p Package
	if err := r.c.getJSON(ctx, "/packages/{name}", "/packages/"+url.PathEscape(name), nil, &p); err != nil {
		return Package{}, err
	}
	if p.Name != name {
		return Package{}, errMismatch
	}
	return p, nil
}

func (r *registry) getPackage(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, Package, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, Package{}, err
	}
	p, err := r.readPackage(ctx, in.Package)
	if err != nil {
		return nil, Package{}, r.fail("get_package", "the package", err)
	}
	return nil, p, nil
}

// packageSummary answers in text: a Markdown summary of the package.
func (r *registry) packageSummary(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, any, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, nil, err
	}
	p, err := r.readPackage(ctx, in.Package)
	if err != nil {
		return nil, nil, r.fail("package_summary", "the package", err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: summarize(p)}}}, nil, nil
}

// summarize writes a package as Markdown.
func summarize(p Package) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n", p.Name, p.LatestVersion)
	if p.Description != nil {
		fmt.Fprintf(&b, "%s\n\n", *p.Description)
	} else {
		b.WriteString("(no description)\n\n")
	}
	if p.Deprecated {
		b.WriteString("**Deprecated.**\n\n")
	}
	license := "none declared"
	if p.License != nil {
		license = *p.License
	}
	fmt.Fprintf(&b, "- License: %s\n", license)
	if p.Repository != nil {
		fmt.Fprintf(&b, "- Repository: %s\n", *p.Repository)
	}
	if p.Homepage != "" {
		fmt.Fprintf(&b, "- Homepage: %s\n", p.Homepage)
	}
	fmt.Fprintf(&b, "- Owners: %s\n", strings.Join(p.Owners, ", "))
	if len(p.Keywords) > 0 {
		fmt.Fprintf(&b, "- Keywords: %s\n", strings.Join(p.Keywords, ", "))
	}
	fmt.Fprintf(&b, "- Versions: %d\n", p.VersionsCount)
	fmt.Fprintf(&b, "- First published: %s\n", p.CreatedAt)
	fmt.Fprintf(&b, "- Last updated: %s\n", p.UpdatedAt)
	return b.String()
}

// getLatestRelease calls two routes: the package, then its latest version,
// and merges them.
func (r *registry) getLatestRelease(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, latestRelease, error) {
	const what = "the latest release"
	if err := r.packageArg(in.Package); err != nil {
		return nil, latestRelease{}, err
	}
	p, err := r.readPackage(ctx, in.Package)
	if err != nil {
		return nil, latestRelease{}, r.fail("get_latest_release", what, err)
	}
	var v Version
	path := "/packages/" + url.PathEscape(p.Name) + "/versions/" + url.PathEscape(p.LatestVersion)
	if err := r.c.getJSON(ctx, "/packages/{name}/versions/{version}", path, nil, &v); err != nil {
		return nil, latestRelease{}, r.fail("get_latest_release", what, err)
	}
	if v.Package != p.Name || v.Version != p.LatestVersion {
		return nil, latestRelease{}, r.fail("get_latest_release", what, errMismatch)
	}
	return nil, latestRelease{
		Package:           p.Name,
		Description:       p.Description,
		Version:           v.Version,
		PublishedAt:       v.PublishedAt,
		Yanked:            v.Yanked,
		License:           v.License,
		Checksum:          v.Checksum,
		DependenciesCount: len(v.Dependencies),
		Deprecated:        p.Deprecated,
	}, nil
}

func (r *registry) listVersions(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, versionList, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, versionList{}, err
	}
	var list []VersionSummary
	if err := r.c.getJSON(ctx, "/packages/{name}/versions", "/packages/"+url.PathEscape(in.Package)+"/versions", nil, &list); err != nil {
		return nil, versionList{}, r.fail("list_versions", "the versions", err)
	}
	return nil, versionList{Versions: list}, nil
}

// readVersion reads a version and checks that the answer is about it.
func (r *registry) readVersion(ctx context.Context, in versionArgs) (Version, error) {
	var v Version
	path := "/packages/" + url.PathEscape(in.Package) + "/versions/" + url.PathEscape(in.Version)
	if err := r.c.getJSON(ctx, "/packages/{name}/versions/{version}", path, nil, &v); err != nil {
		return Version{}, err
	}
	if v.Package != in.Package || v.Version != in.Version {
		return Version{}, errMismatch
	}
	return v, nil
}

func (r *registry) getVersion(ctx context.Context, _ *mcp.CallToolRequest, in versionArgs) (*mcp.CallToolResult, versionInfo, error) {
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
	if v.PublishedBy != nil { // null for a version the registry mirrored
		out.PublishedBy = &v.PublishedBy.Login
	}
	return nil, out, nil
}

// info is a version as get_version shows it, but for its publisher.
func info(v Version) versionInfo {
	return versionInfo{
		Package:      v.Package,
		Version:      v.Version,
		PublishedAt:  v.PublishedAt,
		Yanked:       v.Yanked,
		YankedReason: v.YankedReason,
		License:      v.License,
		Checksum:     v.Checksum,
		Size:         v.Size,
		Dependencies: v.Dependencies,
	}
}

func (r *registry) listDependents(ctx context.Context, _ *mcp.CallToolRequest, in dependentsArgs) (*mcp.CallToolResult, Dependents, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, Dependents{}, err
	}
	if in.Page == 0 {
		in.Page = 1
	}
	if in.Page < 1 {
		return nil, Dependents{}, errArgument("page", "1 or more")
	}
	var out Dependents
	q := url.Values{"page": {strconv.FormatInt(in.Page, 10)}}
	if err := r.c.getJSON(ctx, "/packages/{name}/dependents", "/packages/"+url.PathEscape(in.Package)+"/dependents", q, &out); err != nil {
		return nil, Dependents{}, r.fail("list_dependents", "the dependents", err)
	}
	if out.Package != in.Package {
		return nil, Dependents{}, r.fail("list_dependents", "the dependents", errMismatch)
	}
	return nil, out, nil
}

func (r *registry) getDownloads(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, Downloads, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, Downloads{}, err
	}
	var out Downloads
	if err := r.c.getJSON(ctx, "/packages/{name}/downloads", "/packages/"+url.PathEscape(in.Package)+"/downloads", nil, &out); err != nil {
		return nil, Downloads{}, r.fail("get_downloads", "the download counts", err)
	}
	if out.Package != in.Package {
		return nil, Downloads{}, r.fail("get_downloads", "the download counts", errMismatch)
	}
	return nil, out, nil
}

func (r *registry) getReadme(ctx context.Context, _ *mcp.CallToolRequest, in packageArgs) (*mcp.CallToolResult, Readme, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, Readme{}, err
	}
	var out Readme
	if err := r.c.getJSON(ctx, "/packages/{name}/readme", "/packages/"+url.PathEscape(in.Package)+"/readme", nil, &out); err != nil {
		return nil, Readme{}, r.fail("get_readme", "the readme", err)
	}
	if out.Package != in.Package {
		return nil, Readme{}, r.fail("get_readme", "the readme", errMismatch)
	}
	return nil, out, nil
}

func (r *registry) getUser(ctx context.Context, _ *mcp.CallToolRequest, in loginArgs) (*mcp.CallToolResult, User, error) {
	if err := r.loginArg(in.Login); err != nil {
		return nil, User{}, err
	}
	var out User
	if err := r.c.getJSON(ctx, "/users/{login}", "/users/"+url.PathEscape(in.Login), nil, &out); err != nil {
		return nil, User{}, r.fail("get_user", "the user", err)
	}
	if out.Login != in.Login {
		return nil, User{}, r.fail("get_user", "the user", errMismatch)
	}
	return nil, out, nil
}

func (r *registry) listUserPackages(ctx context.Context, _ *mcp.CallToolRequest, in loginArgs) (*mcp.CallToolResult, UserPackages, error) {
	if err := r.loginArg(in.Login); err != nil {
		return nil, UserPackages{}, err
	}
	var out UserPackages
	if err := r.c.getJSON(ctx, "/users/{login}/packages", "/users/"+url.PathEscape(in.Login)+"/packages", nil, &out); err != nil {
		return nil, UserPackages{}, r.fail("list_user_packages", "the user's packages", err)
	}
	if out.Login != in.Login {
		return nil, UserPackages{}, r.fail("list_user_packages", "the user's packages", errMismatch)
	}
	return nil, out, nil
}

func (r *registry) getAdvisory(ctx context.Context, _ *mcp.CallToolRequest, in advisoryArgs) (*mcp.CallToolResult, Advisory, error) {
	if in.AdvisoryID < 1 {
		return nil, Advisory{}, errArgument("advisory_id", "1 or more")
	}
	var out Advisory
	if err := r.c.getJSON(ctx, "/advisories/{id}", "/advisories/"+strconv.FormatInt(in.AdvisoryID, 10), nil, &out); err != nil {
		return nil, Advisory{}, r.fail("get_advisory", "the advisory", err)
	}
	if out.ID != in.AdvisoryID {
		return nil, Advisory{}, r.fail("get_advisory", "the advisory", errMismatch)
	}
	return nil, out, nil
}

func (r *registry) listAdvisories(ctx context.Context, _ *mcp.CallToolRequest, in advisoriesArgs) (*mcp.CallToolResult, AdvisoryList, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, AdvisoryList{}, err
	}
	q := url.Values{"package": {in.Package}}
	if in.Severity != "" {
		if !r.checkArg("Severity", in.Severity) {
			return nil, AdvisoryList{}, errArgument("severity", "low, moderate, high or critical")
		}
		q.Set("severity", in.Severity)
	}
	var out AdvisoryList
	if err := r.c.getJSON(ctx, "/advisories", "/advisories", q, &out); err != nil {
		return nil, AdvisoryList{}, r.fail("list_advisories", "the advisories", err)
	}
	if out.Package != in.Package {
		return nil, AdvisoryList{}, r.fail("list_advisories", "the advisories", errMismatch)
	}
	return nil, out, nil
}

func (r *registry) registryStats(ctx context.Context, _ *mcp.CallToolRequest, _ statsArgs) (*mcp.CallToolResult, Stats, error) {
	var out Stats
	if err := r.c.getJSON(ctx, "/stats", "/stats", nil, &out); err != nil {
		return nil, Stats{}, r.fail("registry_stats", "the statistics", err)
	}
	return nil, out, nil
}

// yankVersion is a write: sent once, never retried.
func (r *registry) yankVersion(ctx context.Context, _ *mcp.CallToolRequest, in yankArgs) (*mcp.CallToolResult, YankResult, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, YankResult{}, err
	}
	if err := r.versionArg(in.Version); err != nil {
		return nil, YankResult{}, err
	}
	if utf8.RuneCountInString(in.Reason) > 200 {
		return nil, YankResult{}, errArgument("reason", "at most 200 characters")
	}
	body := struct {
		Version string `json:"version"`
		Reason  string `json:"reason,omitempty"`
	}{in.Version, in.Reason}
	var out YankResult
	err := r.c.send(ctx, http.MethodPost, "/packages/{name}/yank", "/packages/"+url.PathEscape(in.Package)+"/yank", body, &out)
	if err == nil && (out.Package != in.Package || out.Version != in.Version) {
		err = errMismatch
	}
	if err != nil {
		r.log.Printf("yank_version: %v", err)
		return nil, YankResult{}, errors.New("registry: the version could not be yanked")
	}
	return nil, out, nil
}

// removeOwner is a write: sent once, never retried.
func (r *registry) removeOwner(ctx context.Context, _ *mcp.CallToolRequest, in ownerArgs) (*mcp.CallToolResult, OwnerList, error) {
	if err := r.packageArg(in.Package); err != nil {
		return nil, OwnerList{}, err
	}
	if err := r.loginArg(in.Login); err != nil {
		return nil, OwnerList{}, err
	}
	var out OwnerList
	path := "/packages/" + url.PathEscape(in.Package) + "/owners/" + url.PathEscape(in.Login)
	err := r.c.send(ctx, http.MethodDelete, "/packages/{name}/owners/{login}", path, nil, &out)
	if err == nil && out.Package != in.Package {
		err = errMismatch
	}
	if err != nil {
		r.log.Printf("remove_owner: %v", err)
		return nil, OwnerList{}, errors.New("registry: the owner could not be removed")
	}
	return nil, out, nil
}

// decodeAPIError returns the registry's error message of a failed answer,
// or "" (naive.go uses it).
func decodeAPIError(err error) (string, bool) {
	var se *statusError
	if !errors.As(err, &se) {
		return "", false
	}
	var e apiError
	_ = json.Unmarshal(se.body, &e)
	return e.Error.Message, true
}
