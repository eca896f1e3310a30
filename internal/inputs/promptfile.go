package inputs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentjob/agent-job-action/internal/escape"
)

// readPromptFile reads the prompt-file input: a regular file of at most
// MaxPromptBytes.
//
// With workspace "" (outside Actions) it is the file a person names, as
// any command line reads it: absolute, or relative to the current
// directory. The workspace rule guards a workflow against its repository's
// content; at a terminal the person names their own file.
//
// Otherwise (inside Actions) the file must lie inside the workspace. The
// name is relative to the workspace; an absolute name is accepted when it
// lies inside. Nothing outside the workspace is ever opened: the file is
// opened through os.Root, which follows no "..", absolute path or symbolic
// link out of it, so a link committed to the repository cannot hand the
// agent /proc/self/environ (and the step's secrets with it). Named pipes
// and devices are refused before and after opening, and the open itself
// does not block, so a FIFO cannot hang the step.
//
// Errors name the file, escaped for the log, and say what is wrong with it.
func readPromptFile(workspace, name string) (string, error) {
	shown := escape.Log(name)
	if workspace == "" {
		return readNamedFile(name, shown)
	}
	ws, err := filepath.Abs(workspace)
	if err != nil {
		return "", fmt.Errorf("%s cannot be read: the workspace %s has no absolute path (%v)", shown, escape.Log(workspace), err)
	}
	rel := name
	if filepath.IsAbs(name) {
		r, err := filepath.Rel(ws, filepath.Clean(name))
		if err != nil || !filepath.IsLocal(r) {
			return "", fmt.Errorf("%s is outside the workspace %s: name a file of the repository, relative to the workspace", shown, escape.Log(ws))
		}
		rel = r
	}
	if !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s leads outside the workspace %s: name a file of the repository, relative to the workspace", shown, escape.Log(ws))
	}

	root, err := os.OpenRoot(ws)
	if err != nil {
		return "", fmt.Errorf("%s cannot be read: the workspace %s cannot be opened (%s)", shown, escape.Log(ws), reason(err))
	}
	defer root.Close()
	fi, err := root.Stat(rel)
	if err != nil {
		return "", statError(root, rel, shown, ws, err)
	}
	if err := regular(fi, shown); err != nil {
		return "", err
	}
	f, err := openRegular(root, rel, shown)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readCapped(f, shown)
}

// readNamedFile reads the file at name, wherever it is, with the same
// limits: a regular file (a FIFO or a device is refused, and the open does
// not block on one), at most MaxPromptBytes.
func readNamedFile(name, shown string) (string, error) {
	fi, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("%s does not exist: check the path (absolute, or relative to the current directory)", shown)
	case err != nil:
		return "", fmt.Errorf("%s cannot be read (%s)", shown, reason(err))
	}
	if err := regular(fi, shown); err != nil {
		return "", err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return "", fmt.Errorf("%s cannot be opened (%s)", shown, reason(err))
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file: name a file", shown)
	}
	return readCapped(f, shown)
}

// readCapped reads f whole, refusing more than MaxPromptBytes.
func readCapped(f *os.File, shown string) (string, error) {
	data, err := io.ReadAll(io.LimitReader(f, MaxPromptBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s cannot be read (%s)", shown, reason(err))
	}
	if len(data) > MaxPromptBytes {
		return "", fmt.Errorf("%s is larger than %d KiB: shorten it", shown, MaxPromptBytes>>10)
	}
	return string(data), nil
}

// openRegular opens rel under root without blocking (a FIFO with no writer
// would otherwise wait forever) and makes sure that what was opened is a
// regular file: the name may have been replaced since it was checked.
func openRegular(root *os.Root, rel, shown string) (*os.File, error) {
	f, err := root.OpenFile(rel, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("%s cannot be opened (%s)", shown, reason(err))
	}
	fi, err := f.Stat()
	if err == nil {
		err = regular(fi, shown)
	} else {
		err = fmt.Errorf("%s cannot be read (%s)", shown, reason(err))
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// statError explains why rel cannot be looked at.
func statError(root *os.Root, rel, shown, ws string, err error) error {
	// A link anywhere on the way (the file, or a directory above it).
	// os.Root follows no absolute link, even one that names a place
	// inside the workspace.
	link, absInside, last := false, false, true
	for p := filepath.Clean(rel); p != "." && p != string(filepath.Separator); p, last = filepath.Dir(p), false {
		if li, lerr := root.Lstat(p); lerr == nil && li.Mode()&fs.ModeSymlink != 0 {
			link = true
			if last && errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s is a symbolic link to nothing: name the file itself", shown)
			}
			if target, rerr := root.Readlink(p); rerr == nil && filepath.IsAbs(target) {
				if r, rerr := filepath.Rel(ws, filepath.Clean(target)); rerr == nil && filepath.IsLocal(r) {
					absInside = true
				}
			}
		}
	}
	switch {
	case absInside && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s is or passes through a symbolic link with an absolute target, which is never followed, even to a place inside the workspace %s: name the file itself, or make the link relative", shown, escape.Log(ws))
	case link && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s is or passes through a symbolic link that leads outside the workspace %s: name a file of the repository", shown, escape.Log(ws))
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist in the workspace %s: check the path, relative to the workspace, and that the job checks out the repository", shown, escape.Log(ws))
	}
	return fmt.Errorf("%s cannot be read (%s): name a file of the repository, relative to the workspace", shown, reason(err))
}

// regular refuses anything but a regular file.
func regular(fi fs.FileInfo, shown string) error {
	m := fi.Mode()
	var kind string
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		kind = "a directory"
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeSymlink != 0:
		kind = "a symbolic link"
	default:
		kind = "a special file"
	}
	return fmt.Errorf("%s is %s, not a regular file: name a file of the repository", shown, kind)
}

// reason is err without the path a *PathError repeats: the path is
// someone's text and is shown once, escaped, by the caller.
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
