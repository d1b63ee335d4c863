package openapi

// Title returns the description's info.title, "" when it has none.
func (d *Description) Title() string {
	return stringOf(lookup(d.root, "info"), "title")
}
