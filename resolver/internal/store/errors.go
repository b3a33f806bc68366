package store

import (
	"errors"
	"syscall"
	"time"
)

// The errors of the store. They are the resolver's domain errors too
// (package resolver gives them their public names): a write refused for
// the state of a record is decided here, in the transaction that reads
// the state, and only the HTTP layer turns them into status codes.
var (
	ErrNotFound = errors.New("no record for this URN")
	ErrExists   = errors.New("a record for this URN exists already")
	// ErrGone is matched (errors.Is) by the error of a read or a write
	// of a deactivated URN; errors.As with a *GoneError gives when and
	// why it was deactivated.
	ErrGone = errors.New("the URN is deactivated")
	// ErrActive is returned by a reactivation of a URN that is not
	// deactivated.
	ErrActive = errors.New("the URN is not deactivated")
	// ErrSuccessorCycle is returned by a deactivation whose successor
	// leads back to the URN through the successors of deactivated
	// records, or through a chain longer than 32.
	ErrSuccessorCycle = errors.New("the successor leads back to this URN")
	// ErrNoSuccessor is returned by a deactivation whose successor, or a
	// URN further along the chain of successors, has no record: N2L
	// would redirect to a 404. A successor is registered before it is
	// named.
	ErrNoSuccessor = errors.New("the successor has no record")
	// ErrDiskFull is matched (errors.Is) by a store error that says the
	// database's disk or its size limit is full.
	ErrDiskFull = errors.New("the database's disk is full")
	// ErrBackupPostgres is returned by Backup for a PostgreSQL store,
	// whose backups are PostgreSQL's own (pg_dump; the README gives the
	// command).
	ErrBackupPostgres = errors.New("a PostgreSQL database is backed up with pg_dump (see the README), not by urnresolver")
)

// Deactivation says when and why a URN was deactivated. Persistent
// identifiers are never forgotten: a deleted record is kept, deactivated,
// so that its URN answers 410 Gone instead of being unknown, and only a
// reactivation brings it back (the national resolvers' practice, issue 23).
type Deactivation struct {
	At        time.Time // when it was first deactivated, UTC
	Reason    string    // why, as the deleting client said; may be empty
	Successor string    // the canonical URN that replaces it, or ""
}

// GoneError is the error of a read or write of a deactivated URN.
type GoneError struct {
	URN string // the record's URN, canonical
	Deactivation
}

func (e *GoneError) Error() string {
	s := e.URN + " was deactivated on " + e.At.Format(time.RFC3339)
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	if e.Successor != "" {
		s += "; its successor is " + e.Successor
	}
	return s
}

// Is makes errors.Is(err, ErrGone) hold.
func (e *GoneError) Is(target error) bool { return target == ErrGone }

// StateError is a write refused for the state of the record of URN:
// Err is ErrExists (a create of a URN that has a record), ErrNotFound
// (a deactivation or reactivation of one that has none) or ErrActive (a
// reactivation of one that is not deactivated).
type StateError struct {
	URN string // canonical, as the write named it
	Err error
}

func (e *StateError) Error() string { return e.URN + ": " + e.Err.Error() }
func (e *StateError) Unwrap() error { return e.Err }

// SuccessorError is a deactivation refused for its successor: errors.Is
// matches ErrSuccessorCycle or ErrNoSuccessor.
type SuccessorError struct {
	URN       string // the URN being deactivated, canonical
	Successor string // the successor it named, canonical
	At        string // the URN of the chain at fault: the first without a record, or the one that leads back
	Err       error  // ErrSuccessorCycle or ErrNoSuccessor
}

func (e *SuccessorError) Error() string { return e.At + ": " + e.Err.Error() }
func (e *SuccessorError) Unwrap() error { return e.Err }

// DiskFull wraps err so that errors.Is(err, ErrDiskFull) holds when it is
// a full disk: SQLite's SQLITE_FULL (13), PostgreSQL's disk_full (SQLSTATE
// 53100), or the system's ENOSPC.
func DiskFull(err error) error {
	if err == nil || errors.Is(err, ErrDiskFull) {
		return err
	}
	var sc interface{ Code() int }
	var pg interface{ SQLState() string }
	switch {
	case errors.As(err, &sc) && sc.Code()&0xff == 13,
		errors.As(err, &pg) && pg.SQLState() == "53100",
		errors.Is(err, syscall.ENOSPC):
		return &fullError{err}
	}
	return err
}

type fullError struct{ err error }

func (e *fullError) Error() string        { return "disk full: " + e.err.Error() }
func (e *fullError) Unwrap() error        { return e.err }
func (e *fullError) Is(target error) bool { return target == ErrDiskFull }
