package attest

import (
	"embed"
	"html/template"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/toolcert/toolcert/reports"
)

//go:embed matrix.tmpl
var matrixFS embed.FS

// HTML writes m as one self-contained HTML page: the table of Markdown
// (each cell's result, level, date, counts and other levels' results),
// every text escaped by html/template after it is made printable, and a
// Content-Security-Policy that loads nothing.
func HTML(w io.Writer, m Matrix) error {
	t, err := template.New("matrix.tmpl").Funcs(template.FuncMap{"text": htmlText}).ParseFS(matrixFS, "matrix.tmpl")
	if err != nil {
		return err
	}
	return t.Execute(w, struct {
		Matrix
		Note string
	}{m, checkedNote(m)})
}

// htmlText returns s printable and valid UTF-8, for html/template to
// escape.
func htmlText(s string) string {
	return strings.ToValidUTF8(reports.Printable(s), string(utf8.RuneError))
}
