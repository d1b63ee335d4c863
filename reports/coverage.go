package reports

import (
	"fmt"
	"io"
	"slices"
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

// Fold is the coverage matrix folded to operators x tools, the form the
// console, Markdown and HTML reports show: each cell counts the cases over
// the fields of the tool.
type Fold struct {
	// Operators are in the matrix's order; Tools are sorted.
	Operators []string
	Tools     []string
	cells     map[string]map[string]FoldCell
}

// FoldCell counts the cases of one operator x tool.
type FoldCell struct{ Passed, Cases int }

// FoldCoverage folds the field level of cells.
func FoldCoverage(cells []Cell) Fold {
	f := Fold{cells: map[string]map[string]FoldCell{}}
	for _, c := range cells {
		if !slices.Contains(f.Tools, c.Tool) {
			f.Tools = append(f.Tools, c.Tool)
		}
		row := f.cells[c.Operator]
		if row == nil {
			row = map[string]FoldCell{}
			f.cells[c.Operator] = row
			f.Operators = append(f.Operators, c.Operator)
		}
		fc := row[c.Tool]
		fc.Cases += c.Cases
		fc.Passed += c.Passed
		row[c.Tool] = fc
	}
	slices.Sort(f.Tools)
	return f
}

// Cell returns the counts of one operator x tool (zero when none ran).
func (f Fold) Cell(operator, tool string) FoldCell { return f.cells[operator][tool] }

// Exercised reports whether any case of operator ran on any tool.
func (f Fold) Exercised(operator string) bool {
	for _, c := range f.cells[operator] {
		if c.Cases > 0 {
			return true
		}
	}
	return false
}

// Status is the cell's status: CellNotExercised, CellFailed or CellPassed.
func (c FoldCell) Status() string {
	switch {
	case c.Cases == 0:
		return CellNotExercised
	case c.Passed < c.Cases:
		return CellFailed
	}
	return CellPassed
}

// String is the cell as the console shows it: "passed/cases", "FAIL
// passed/cases" when a case failed, "-" when no case reached it.
func (c FoldCell) String() string {
	switch c.Status() {
	case CellNotExercised:
		return "-"
	case CellFailed:
		return fmt.Sprintf("FAIL %d/%d", c.Passed, c.Cases)
	}
	return fmt.Sprintf("%d/%d", c.Passed, c.Cases)
}

// CoverageTable writes the matrix folded to operators x tools for a
// terminal (see [FoldCell.String]). Operators that ran no case at all are
// left out.
func CoverageTable(w io.Writer, cells []Cell) {
	if len(cells) == 0 {
		return
	}
	f := FoldCoverage(cells)
	fmt.Fprintf(w, "%-24s", "operator")
	for _, t := range f.Tools {
		fmt.Fprintf(w, " %14s", t)
	}
	fmt.Fprintln(w)
	for _, op := range f.Operators {
		if !f.Exercised(op) {
			continue
		}
		fmt.Fprintf(w, "%-24s", op)
		for _, t := range f.Tools {
			fmt.Fprintf(w, " %14s", f.Cell(op, t))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, strings.Repeat("-", 24+15*len(f.Tools)))
}
