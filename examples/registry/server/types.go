package main

// The registry's answers, as typed structs: encoding/json fills what they
// declare and drops the rest. Most tools answer with one of them as their
// structured content; the SDK infers each tool's output schema from it.

// PackageSummary is a package in a list.
type PackageSummary struct {
	Name          string  `json:"name"`
	Description   *string `json:"description"`
	LatestVersion string  `json:"latest_version"`
	Downloads     *int64  `json:"downloads,omitempty"`
	UpdatedAt     string  `json:"updated_at"`
}

// PackageList is one page of a search.
type PackageList struct {
	Items   []PackageSummary `json:"items"`
	Total   int64            `json:"total"`
	Page    int64            `json:"page"`
	PerPage int64            `json:"per_page"`
}

// Package is a package's metadata. It does not declare the answer's
// deprecation_message, which is dropped.
type Package struct {
	Name          string   `json:"name"`
	Description   *string  `json:"description"`
	LatestVersion string   `json:"latest_version"`
	License       *string  `json:"license"`
	Repository    *string  `json:"repository"`
	Homepage      string   `json:"homepage,omitempty"`
	Keywords      []string `json:"keywords"`
	Owners        []string `json:"owners"`
	VersionsCount int64    `json:"versions_count"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
	Deprecated    bool     `json:"deprecated"`
}

// VersionSummary is a version in the list of a package's versions.
type VersionSummary struct {
	Version     string `json:"version"`
	PublishedAt string `json:"published_at"`
	Yanked      bool   `json:"yanked"`
}

// Publisher is who published a version.
type Publisher struct {
	Login string `json:"login"`
	ID    int64  `json:"id"`
}

// Dependency is one dependency of a version.
type Dependency struct {
	Name        string `json:"name"`
	Requirement string `json:"requirement"`
	Kind        string `json:"kind"`
	Optional    bool   `json:"optional,omitempty"`
}

// Version is one version of a package, as the registry answers it.
type Version struct {
	Package      string       `json:"package"`
	Version      string       `json:"version"`
	PublishedAt  string       `json:"published_at"`
	Yanked       bool         `json:"yanked"`
	YankedReason *string      `json:"yanked_reason"`
	License      *string      `json:"license"`
	Checksum     string       `json:"checksum"`
	Size         int64        `json:"size"`
	PublishedBy  *Publisher   `json:"published_by"` // null for a version the registry mirrored
	Dependencies []Dependency `json:"dependencies"`
}

// Dependent is a package that depends on another.
type Dependent struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Requirement string `json:"requirement"`
}

// Dependents is one page of a package's dependents.
type Dependents struct {
	Package    string      `json:"package"`
	Total      int64       `json:"total"`
	Dependents []Dependent `json:"dependents"`
}

// Downloads are a package's download counts.
type Downloads struct {
	Package   string `json:"package"`
	Total     int64  `json:"total"`
	LastDay   int64  `json:"last_day"`
	LastWeek  int64  `json:"last_week"`
	LastMonth int64  `json:"last_month"`
	AsOf      string `json:"as_of"`
}

// Readme is a package's readme. The tool drops its format (always
// markdown).
type Readme struct {
	Package  string `json:"package"`
	Version  string `json:"version"`
	Markdown string `json:"markdown"`
}

// User is a registry user.
type User struct {
	Login         string  `json:"login"`
	ID            int64   `json:"id"`
	Name          *string `json:"name"`
	URL           string  `json:"url"`
	AvatarURL     string  `json:"avatar_url,omitempty"`
	CreatedAt     string  `json:"created_at"`
	PackagesCount int64   `json:"packages_count"`
}

// UserPackages are the packages a user owns.
type UserPackages struct {
	Login    string           `json:"login"`
	Total    int64            `json:"total"`
	Packages []PackageSummary `json:"packages"`
}

// AdvisorySummary is an advisory in a list.
type AdvisorySummary struct {
	ID          int64  `json:"id"`
	Severity    string `json:"severity"`
	Title       string `json:"title"`
	PublishedAt string `json:"published_at"`
}

// AdvisoryList are a package's advisories.
type AdvisoryList struct {
	Package    string            `json:"package"`
	Advisories []AdvisorySummary `json:"advisories"`
}

// Advisory is a security advisory.
type Advisory struct {
	ID          int64    `json:"id"`
	Package     string   `json:"package"`
	Severity    string   `json:"severity"`
	Title       string   `json:"title"`
	Summary     string   `json:"summary,omitempty"`
	Affected    string   `json:"affected"`
	Patched     *string  `json:"patched"`
	PublishedAt string   `json:"published_at"`
	WithdrawnAt *string  `json:"withdrawn_at,omitempty"`
	References  []string `json:"references"`
}

// Stats are the registry's totals.
type Stats struct {
	Packages    int64  `json:"packages"`
	Versions    int64  `json:"versions"`
	Users       int64  `json:"users"`
	Downloads   int64  `json:"downloads"`
	GeneratedAt string `json:"generated_at"`
}

// YankResult is the answer to a yank.
type YankResult struct {
	Package  string `json:"package"`
	Version  string `json:"version"`
	Yanked   bool   `json:"yanked"`
	YankedAt string `json:"yanked_at"`
}

// OwnerList are a package's owners.
type OwnerList struct {
	Package string   `json:"package"`
	Owners  []string `json:"owners"`
}

// The tools' own results, where a tool does not answer with the
// registry's answer as it is.

// versionList is list_versions' result: the answer's list, under a name.
type versionList struct {
	Versions []VersionSummary `json:"versions"`
}

// versionInfo is get_version's result: the version, its publisher as a
// login (null for a mirrored version).
type versionInfo struct {
	Package      string       `json:"package"`
	Version      string       `json:"version"`
	PublishedAt  string       `json:"published_at"`
	Yanked       bool         `json:"yanked"`
	YankedReason *string      `json:"yanked_reason,omitempty"`
	License      *string      `json:"license"`
	Checksum     string       `json:"checksum"`
	Size         int64        `json:"size"`
	PublishedBy  *string      `json:"published_by"`
	Dependencies []Dependency `json:"dependencies"`
}

// latestRelease is get_latest_release's result: the package and its
// latest version, merged.
type latestRelease struct {
	Package           string  `json:"package"`
	Description       *string `json:"description"`
	Version           string  `json:"version"`
	PublishedAt       string  `json:"published_at"`
	Yanked            bool    `json:"yanked"`
	License           *string `json:"license"`
	Checksum          string  `json:"checksum"`
	DependenciesCount int     `json:"dependencies_count"`
	Deprecated        bool    `json:"deprecated"`
}
