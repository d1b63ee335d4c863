package targets

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
)

// ErrNoExecutable means a Spec starts no local process: its kind names an
// image, or an adapter that is already running.
var ErrNoExecutable = errors.New("the target starts no local executable")

// Executable returns the path of the file a Spec's target runs per lane:
// the first word of its command, looked up in PATH when it holds no slash,
// as the process drivers do. It returns an error wrapping ErrNoExecutable
// for a Spec with no command (an image, a URL), and the lookup's error for
// a command that names no executable file.
func (s Spec) Executable() (string, error) {
	if !s.hasCommand() || s.Kind == KindV1Image || s.Kind == KindV1URL {
		return "", fmt.Errorf("%s: %w", s.Kind, ErrNoExecutable)
	}
	argv, err := s.argv()
	if err != nil {
		return "", err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return "", fmt.Errorf("find executable: %w", err)
	}
	return path, nil
}

// ImageID returns the ID of image in the local Docker engine, the digest
// of its configuration ("sha256:..."), which names its content whatever
// the tag. The engine is the one DOCKER_HOST names, or the local socket.
// No registry is asked: an image that is not local is an error wrapping
// ErrImageNotFound.
func ImageID(ctx context.Context, image string) (string, error) {
	cli, err := client.New(client.FromEnv)
	if err != nil {
		return "", fmt.Errorf("connect to the Docker engine: %w", err)
	}
	defer cli.Close()
	res, err := cli.ImageInspect(ctx, image)
	switch {
	case cerrdefs.IsNotFound(err):
		return "", fmt.Errorf("%w: %s", ErrImageNotFound, image)
	case err != nil:
		return "", fmt.Errorf("inspect image %s: %w", image, err)
	}
	return res.ID, nil
}
