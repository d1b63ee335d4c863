package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// BuildCoverage derives the hostile-space matrix from the cases the
// scenarios ran: one cell per operator, tool and field, where the fields of
// a tool are every field any of its cases touched ("" for operators on the
// whole document). A cell no case reached is not exercised: the matrix
// shows what was not tried as plainly as what was.
func BuildCoverage(scs []Scenario, operators []string) []Cell {
	type key struct{ op, tool, field string }
	cells := map[key]*Cell{}
	fields := map[string]map[string]bool{}
	for _, sc := range scs {
		for _, c := range sc.Cases {
			if fields[c.Tool] == nil {
				fields[c.Tool] = map[string]bool{"": true}
			}
			fields[c.Tool][c.Field] = true
			k := key{c.Operator, c.Tool, c.Field}
			cell := cells[k]
			if cell == nil {
				cell = &Cell{Operator: c.Operator, Tool: c.Tool, Field: c.Field, Status: CellPassed}
				cells[k] = cell
			}
			cell.Cases++
			if c.Status == Passed {
				cell.Passed++
			} else {
				cell.Status = CellFailed
			}
		}
	}
	var out []Cell
	for _, op := range operators {
		for tool, fs := range fields {
			for f := range fs {
				if c, ok := cells[key{op, tool, f}]; ok {
					out = append(out, *c)
				} else {
					out = append(out, Cell{Operator: op, Tool: tool, Field: f, Status: CellNotExercised})
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Operator != b.Operator {
			return a.Operator < b.Operator
		}
		if a.Tool != b.Tool {
			return a.Tool < b.Tool
		}
		return a.Field < b.Field
	})
	return out
}

// CoverageTable writes the matrix folded to operators x tools for a
// terminal: each cell is "passed/cases" over the fields exercised, with
// "FAIL" in front when a case failed, "-" when the operator reached no
// field of the tool. Operators that ran no case at all are left out.
func CoverageTable(w io.Writer, cells []Cell) {
	if len(cells) == 0 {
		return
	}
	tools := map[string]bool{}
	rows := map[string]map[string]*agg{}
	var ops []string
	for _, c := range cells {
		tools[c.Tool] = true
		if rows[c.Operator] == nil {
			rows[c.Operator] = map[string]*agg{}
			ops = append(ops, c.Operator)
		}
		a := rows[c.Operator][c.Tool]
		if a == nil {
			a = &agg{}
			rows[c.Operator][c.Tool] = a
		}
		a.cases += c.Cases
		a.passed += c.Passed
	}
	names := make([]string, 0, len(tools))
	for t := range tools {
		names = append(names, t)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "%-24s", "operator")
	for _, t := range names {
		fmt.Fprintf(w, " %14s", t)
	}
	fmt.Fprintln(w)
	for _, op := range ops {
		if !exercised(rows[op]) {
			continue
		}
		fmt.Fprintf(w, "%-24s", op)
		for _, t := range names {
			fmt.Fprintf(w, " %14s", cellText(rows[op][t]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, strings.Repeat("-", 24+15*len(names)))
}

// exercised reports whether any case of an operator ran on any tool.
func exercised(row map[string]*agg) bool {
	for _, a := range row {
		if a.cases > 0 {
			return true
		}
	}
	return false
}

// agg counts the cases of one operator x tool cell of the folded table.
type agg struct{ passed, cases int }

func cellText(a *agg) string {
	switch {
	case a == nil || a.cases == 0:
		return "-"
	case a.passed < a.cases:
		return fmt.Sprintf("FAIL %d/%d", a.passed, a.cases)
	}
	return fmt.Sprintf("%d/%d", a.passed, a.cases)
}
