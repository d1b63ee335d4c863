package attest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolcert/toolcert/targets"
)

// ReferenceName is the subject name of the built-in reference adapter, run
// in process: its digest is the toolcert binary's own.
const ReferenceName = "toolcert-reference"

// What a subject's digest is the digest of (its "digestOf" annotation).
const (
	DigestOfExecutable = "executable" // the bytes of the file that ran
	DigestOfImage      = "image-id"   // the image ID of the local Docker engine
	DigestOfURL        = "url"        // the URL string: a running adapter has no bytes to digest
)

// Identity is the adapter a run certified, as the attestation's subject
// names it. SubjectOf returns it before the run; WithServer adds what an
// MCP server said of itself.
type Identity struct {
	// Name names the adapter: the executable's base name, the image, the
	// URL, an MCP server's own name or ReferenceName.
	Name string
	// SHA256 is the hex sha256 of what DigestOf says.
	SHA256   string
	DigestOf string
	// Kind is the target's kind (targets.Kinds) or "reference".
	Kind string
	// Path, Image and URL say where the adapter came from; ImageID is the
	// image's ID as the engine gave it.
	Path, Image, ImageID, URL string
	// ServerName and ServerVersion are what an MCP server reported in its
	// initialize result, "" for other targets.
	ServerName, ServerVersion string
}

// KindReference is the Kind of the reference adapter run in process.
const KindReference = "reference"

// SubjectOf returns the identity of the adapter spec names; self is the
// toolcert binary (os.Executable), the subject of a spec that names no
// target: the reference adapter, in process. A process's executable is
// looked up in PATH and digested, an image's ID asked of the local Docker
// engine; a target already running is named by its URL.
func SubjectOf(ctx context.Context, spec targets.Spec, self string) (Identity, error) {
	if spec.Kind == "" {
		return fileIdentity(KindReference, ReferenceName, self)
	}
	if spec.Kind == targets.KindV1Image {
		id, err := targets.ImageID(ctx, spec.Image)
		if err != nil {
			return Identity{}, fmt.Errorf("subject: %w", err)
		}
		return Identity{Name: spec.Image, SHA256: strings.TrimPrefix(id, "sha256:"), DigestOf: DigestOfImage,
			Kind: spec.Kind, Image: spec.Image, ImageID: id}, nil
	}
	exe, err := spec.Executable()
	if errors.Is(err, targets.ErrNoExecutable) {
		return Identity{Name: spec.URL, SHA256: StringDigest(spec.URL), DigestOf: DigestOfURL, Kind: spec.Kind, URL: spec.URL}, nil
	}
	if err != nil {
		return Identity{}, fmt.Errorf("subject: %w", err)
	}
	return fileIdentity(spec.Kind, filepath.Base(exe), exe)
}

// fileIdentity returns the identity of the executable at path.
func fileIdentity(kind, name, path string) (Identity, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sum, err := FileDigest(path)
	if err != nil {
		return Identity{}, fmt.Errorf("subject: %w", err)
	}
	return Identity{Name: name, SHA256: sum, DigestOf: DigestOfExecutable, Kind: kind, Path: path}, nil
}

// WithServer returns id named as the MCP server that reported name and
// version in its initialize result; an empty name leaves the name as it
// was.
func (id Identity) WithServer(name, version string) Identity {
	id.ServerName, id.ServerVersion = name, version
	if name != "" {
		id.Name = name
	}
	return id
}

// Descriptor returns the identity as the statement's subject.
func (id Identity) Descriptor() ResourceDescriptor {
	d := ResourceDescriptor{Name: id.Name, URI: id.URL, Digest: sha256Of(id.SHA256),
		Annotations: map[string]string{"kind": id.Kind, "digestOf": id.DigestOf}}
	for k, v := range map[string]string{"path": id.Path, "image": id.Image, "imageID": id.ImageID,
		"serverName": id.ServerName, "serverVersion": id.ServerVersion} {
		if v != "" {
			d.Annotations[k] = v
		}
	}
	return d
}

// ReferenceDigest returns the hex sha256 a verifier expects of the
// subject ref names: the file at ref when there is one, the string of an
// http or https URL, else the ID of the local Docker image ref.
func ReferenceDigest(ctx context.Context, ref string) (string, error) {
	if st, err := os.Stat(ref); err == nil && st.Mode().IsRegular() {
		return FileDigest(ref)
	}
	if strings.HasPrefix(ref, "http://") || strings.HasPrefix(ref, "https://") {
		return StringDigest(ref), nil
	}
	id, err := targets.ImageID(ctx, ref)
	if err != nil {
		return "", fmt.Errorf("%s is no file, URL or local image: %w", ref, err)
	}
	return strings.TrimPrefix(id, "sha256:"), nil
}
