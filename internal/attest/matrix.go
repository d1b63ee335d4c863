package attest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// AllVersions is the column of the runs that served every upstream
// version of their corpus (no --upstream-version).
const AllVersions = "all"

// Matrix lays attestations out as adapters (rows: a subject's name and
// digest) by upstream versions (columns), each cell naming the level its
// run certified. Where several attestations fall in one cell, the latest
// (by timestamp) stands and Cell.Attestations counts them all.
type Matrix struct {
	// Checked reports that every statement's signature was verified, and
	// KeyID names the key; without, the matrix says its signatures were
	// not checked.
	Checked bool
	KeyID   string
	// Versions are the columns, sorted, AllVersions last.
	Versions []string
	// Rows are the adapters, sorted by name and digest.
	Rows []Row
	// Rejected lists the attestations left out, each with why (their
	// signature did not verify, they could not be read).
	Rejected []string
}

// Row is one adapter's cells, one per version of the matrix.
type Row struct {
	// Adapter is the subject's name, with an MCP server's version; Digest
	// the first 12 hex digits of its sha256. Both are the adapter's own
	// words or bytes: render them escaped.
	Adapter, Digest string
	Cells           []Cell
}

// Cell is the latest attestation of one adapter and upstream version;
// Attestations is 0 for an empty cell. Result is the result at the Level
// the run certified; Others says its result at each other level
// ("at safe: PASSED"), when the attestation states one.
type Cell struct {
	Result       Result
	Level        string
	Others       string
	Date         string
	Counts       string
	Attestations int
}

// NewMatrix returns the matrix of statements; checked and keyID say
// whether and with what key their signatures were verified.
func NewMatrix(statements []*Statement, checked bool, keyID string) Matrix {
	m := Matrix{Checked: checked, KeyID: keyID}
	latest := map[[2]string]*Statement{}
	seen := map[[2]string]int{}
	rows := map[string]Row{}
	for _, st := range statements {
		row, col := rowOf(st), columnOf(st)
		key := [2]string{row.Adapter + "\x00" + row.Digest, col}
		seen[key]++
		if cur := latest[key]; cur == nil || st.Predicate.Toolcert.Timestamp.After(cur.Predicate.Toolcert.Timestamp) {
			latest[key] = st
		}
		rows[key[0]] = row
		if !slices.Contains(m.Versions, col) {
			m.Versions = append(m.Versions, col)
		}
	}
	slices.SortFunc(m.Versions, compareVersions)
	for id, row := range rows {
		for _, col := range m.Versions {
			row.Cells = append(row.Cells, cellOf(latest[[2]string{id, col}], seen[[2]string{id, col}]))
		}
		m.Rows = append(m.Rows, row)
	}
	slices.SortFunc(m.Rows, func(a, b Row) int {
		return cmp.Or(strings.Compare(a.Adapter, b.Adapter), strings.Compare(a.Digest, b.Digest))
	})
	return m
}

// compareVersions orders upstream versions by name, AllVersions last.
func compareVersions(a, b string) int {
	return cmp.Or(cmp.Compare(boolInt(a == AllVersions), boolInt(b == AllVersions)), strings.Compare(a, b))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// rowOf returns the row of st's first subject, without cells.
func rowOf(st *Statement) Row {
	s := st.Subject[0]
	name := s.Name
	if v := s.Annotations["serverVersion"]; v != "" {
		name += " " + v
	}
	digest := s.SHA256()
	if len(digest) > 12 {
		digest = digest[:12]
	}
	return Row{Adapter: name, Digest: digest}
}

// columnOf returns the column of st: its upstream version, or AllVersions.
func columnOf(st *Statement) string {
	return cmp.Or(st.Predicate.Toolcert.UpstreamVersion, AllVersions)
}

// cellOf returns the cell of st among n attestations; an empty cell for
// nil.
func cellOf(st *Statement, n int) Cell {
	if st == nil {
		return Cell{}
	}
	run := st.Predicate.Toolcert
	c := run.Counts
	counts := fmt.Sprintf("%d passed, %d failed", c.Passed, c.Failed)
	if c.NotApplicable > 0 {
		counts += fmt.Sprintf(", %d n/a", c.NotApplicable)
	}
	if c.StrictOnly > 0 {
		counts += fmt.Sprintf(", %d strict only", c.StrictOnly)
	}
	if c.Skipped > 0 {
		counts += fmt.Sprintf(", %d skipped", c.Skipped)
	}
	if c.Cases > 0 {
		counts += fmt.Sprintf("; cases %d/%d", c.CasesPassed, c.Cases)
	}
	if !run.Selection.Whole() {
		counts += "; selected scenarios only"
	}
	return Cell{Result: st.Predicate.Result, Level: string(run.CertifiedLevel()), Others: otherLevels(run),
		Date: run.Timestamp.UTC().Format("2006-01-02"), Counts: counts, Attestations: n}
}

// otherLevels says the run's result at each level it did not certify:
// "at safe: PASSED"; "" when the attestation states none.
func otherLevels(run Run) string {
	var parts []string
	for _, lr := range run.Levels {
		if lr.Level != run.CertifiedLevel() {
			parts = append(parts, fmt.Sprintf("at %s: %s", lr.Level, lr.Result))
		}
	}
	return strings.Join(parts, ", ")
}
