package openapi

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pb33f/go-yaml"
)

// maxFileBytes bounds a file a $ref loads.
const maxFileBytes = 64 << 20

// source is one document $refs point into: the description (name "") or
// a file under the base folder (name its slash path relative to it).
type source struct {
	name string
	root *yaml.Node
}

// loc is a place in a source: the source and a JSON pointer into it.
type loc struct {
	src *source
	ptr string
}

// child returns the location of member or item tok under l.
func (l loc) child(tok string) loc { return loc{l.src, childPointer(l.ptr, tok)} }

// String returns l as a Note Pointer: the pointer alone in the
// description, "file#pointer" in another file.
func (l loc) String() string {
	if l.src.name == "" {
		return l.ptr
	}
	return l.src.name + "#" + l.ptr
}

// resolver follows $refs for one Operation call: into the description,
// and into files under the base folder, each read once.
type resolver struct {
	main    *source
	baseDir string
	root    *os.Root
	files   map[string]*source
}

// newResolver returns a resolver over d. The caller must call close.
func newResolver(d *Description) *resolver {
	return &resolver{main: &source{root: d.root}, baseDir: d.opts.BaseDir, files: map[string]*source{}}
}

// close releases the base folder.
func (r *resolver) close() {
	if r.root != nil {
		r.root.Close()
	}
}

// at returns the location of pointer ptr in the description.
func (r *resolver) at(ptr string) loc { return loc{r.main, ptr} }

// resolve follows ref, written at from, and returns the target's location
// and node. Every failure is a *RefError.
func (r *resolver) resolve(from loc, ref string) (loc, *yaml.Node, error) {
	fail := func(err error) (loc, *yaml.Node, error) {
		return loc{}, nil, &RefError{Ref: ref, Pointer: from.String(), Err: err}
	}
	file, frag, err := splitRef(ref)
	if err != nil {
		return fail(err)
	}
	src := from.src
	if file != "" {
		if src, err = r.file(from.src, file); err != nil {
			return fail(err)
		}
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		return fail(fmt.Errorf("%w: only JSON pointer fragments are followed, not anchor %q", ErrBrokenRef, frag))
	}
	n := src.root
	for _, tok := range pointerTokens(frag) {
		if n = step(n, tok); n == nil {
			return fail(fmt.Errorf("%w: no %q in %s", ErrBrokenRef, frag, sourceName(src)))
		}
	}
	return loc{src, frag}, deref(n), nil
}

// splitRef splits ref into a file path and a decoded fragment; a URL is
// refused with ErrRemoteRef.
func splitRef(ref string) (file, frag string, err error) {
	u, perr := url.Parse(ref)
	if perr != nil {
		return "", "", fmt.Errorf("%w: %v", ErrBrokenRef, perr)
	}
	if u.Scheme != "" || u.Host != "" || strings.HasPrefix(ref, "//") {
		return "", "", ErrRemoteRef
	}
	raw := ref
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		raw = ref[:i]
		frag = ref[i+1:]
		if dec, derr := url.PathUnescape(frag); derr == nil {
			frag = dec
		}
	}
	if raw != "" {
		if file, err = url.PathUnescape(raw); err != nil {
			return "", "", fmt.Errorf("%w: %v", ErrBrokenRef, err)
		}
	}
	return file, frag, nil
}

// sourceName names src in messages.
func sourceName(src *source) string {
	if src.name == "" {
		return "the description"
	}
	return src.name
}

// file returns the file rel names, relative to the file from is in, read
// once: under the base folder only (os.Root refuses a symbolic link out).
func (r *resolver) file(from *source, rel string) (*source, error) {
	if r.baseDir == "" {
		return nil, fmt.Errorf("%w: no base folder is set", ErrFileRef)
	}
	if path.IsAbs(rel) || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" {
		return nil, fmt.Errorf("%w: absolute path %s", ErrFileRef, rel)
	}
	name := path.Join(path.Dir(from.name), rel)
	if name == ".." || strings.HasPrefix(name, "../") {
		return nil, fmt.Errorf("%w: %s is outside the base folder", ErrFileRef, name)
	}
	if src, ok := r.files[name]; ok {
		return src, nil
	}
	root, err := r.parse(name)
	if err != nil {
		return nil, err
	}
	src := &source{name: name, root: root}
	r.files[name] = src
	return src, nil
}

// parse reads and parses the file name under the base folder.
func (r *resolver) parse(name string) (*yaml.Node, error) {
	if r.root == nil {
		root, err := os.OpenRoot(r.baseDir)
		if err != nil {
			return nil, fmt.Errorf("%w: open base folder: %v", ErrBrokenRef, err)
		}
		r.root = root
	}
	f, err := r.root.Open(filepath.FromSlash(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %v", ErrBrokenRef, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrFileRef, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: read %s: %v", ErrBrokenRef, name, err)
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%w: %s is larger than %d bytes", ErrBrokenRef, name, maxFileBytes)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: parse %s: %v", ErrBrokenRef, name, err)
	}
	return deref(&doc), nil
}
