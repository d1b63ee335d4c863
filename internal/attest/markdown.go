package attest

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolcert/toolcert/reports"
)

// Markdown writes m as a Markdown table: a row per adapter, a column per
// upstream version, each cell the result and the level it is at, its date
// and counts, and the result at the other level. Every text an adapter or
// an attestation gave is made printable and escaped.
func Markdown(w io.Writer, m Matrix) error {
	var b strings.Builder
	b.WriteString("# toolcert certification matrix\n\n")
	b.WriteString(checkedNote(m) + "\n\n")
	b.WriteString("| adapter | sha256 |")
	for _, v := range m.Versions {
		b.WriteString(" " + mdText(v) + " |")
	}
	b.WriteString("\n| --- | --- |" + strings.Repeat(" --- |", len(m.Versions)) + "\n")
	for _, r := range m.Rows {
		fmt.Fprintf(&b, "| %s | %s |", mdText(r.Adapter), mdText(r.Digest))
		for _, c := range r.Cells {
			b.WriteString(" " + mdCell(c) + " |")
		}
		b.WriteString("\n")
	}
	if len(m.Rejected) > 0 {
		b.WriteString("\nLeft out:\n\n")
		for _, why := range m.Rejected {
			b.WriteString("- " + mdText(why) + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// checkedNote says whether the signatures were checked.
func checkedNote(m Matrix) string {
	if m.Checked {
		return "Every signature was verified with the key " + m.KeyID + "."
	}
	return "The signatures were NOT checked (no --pubkey): the attestations are shown as they claim to be."
}

// mdCell returns the text of a cell.
func mdCell(c Cell) string {
	if c.Attestations == 0 {
		return "—"
	}
	s := "**" + mdText(string(c.Result)) + "** at " + mdText(c.Level) + ", " + c.Date + "<br>" + mdText(c.Counts)
	if c.Others != "" {
		s += "<br>" + mdText(c.Others)
	}
	if c.Attestations > 1 {
		s += fmt.Sprintf("<br>(latest of %d)", c.Attestations)
	}
	return s
}

// mdText makes s one line of literal Markdown text: printable, whitespace
// runs as one space, and every character Markdown or HTML give a meaning
// backslash-escaped.
func mdText(s string) string {
	s = strings.Join(strings.Fields(reports.Printable(s)), " ")
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>|~#&!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
