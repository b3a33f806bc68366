package resolver

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/urikit/urikit/resolver/internal/store"
)

// Errors of the records the store holds. The resolver's records layer
// returns them, and its HTTP layer answers them with status codes.
var (
	ErrNotFound = store.ErrNotFound
	ErrExists   = store.ErrExists
	// ErrGone is matched (errors.Is) by the error of a read or a write
	// of a deactivated URN; errors.As with a *GoneError gives when and
	// why it was deactivated.
	ErrGone = store.ErrGone
	// ErrActive is returned by a reactivation of a URN that is not
	// deactivated.
	ErrActive = store.ErrActive
	// ErrSuccessorCycle is returned by a deactivation whose successor
	// leads back to the URN through the successors of deactivated
	// records, or through a chain longer than 32.
	ErrSuccessorCycle = store.ErrSuccessorCycle
	// ErrNoSuccessor is returned by a deactivation whose successor, or a
	// URN further along the chain of successors, has no record: N2L
	// would redirect to a 404. A successor is registered before it is
	// named.
	ErrNoSuccessor = store.ErrNoSuccessor
	// ErrDiskFull is matched (errors.Is) by a store error that says the
	// database's disk or its size limit is full.
	ErrDiskFull = store.ErrDiskFull
	// ErrBackupPostgres is returned by Backup for a PostgreSQL store,
	// whose backups are PostgreSQL's own (pg_dump; the README gives the
	// command).
	ErrBackupPostgres = store.ErrBackupPostgres
)

// Deactivation says when and why a URN was deactivated: At (UTC),
// Reason (as the deleting client said; may be empty) and Successor (the
// canonical URN that replaces it, or ""). Persistent identifiers are
// never forgotten: a deleted record is kept, deactivated, so that its
// URN answers 410 Gone instead of being unknown, and only a reactivation
// brings it back.
type Deactivation = store.Deactivation

// GoneError is the error of a read or write of a deactivated URN: its
// URN (canonical) and its Deactivation. errors.Is(err, ErrGone) holds.
type GoneError = store.GoneError

// AuditEntry is one line of the audit log: who wrote what (Actor,
// "token:ID" or "cli"; Action; URN, the record's URN, the token's ID or
// the import's source; Detail, JSON), when (At) and from where (Client,
// the remote address or "local"). Every write is audited in its own
// transaction.
type AuditEntry = store.AuditEntry

// Store keeps records, tokens and the audit log in SQLite or PostgreSQL
// (the SQL is package resolver/internal/store's), and the N2L answer
// cache in front of them (Cache).
type Store struct {
	db *store.DB

	cache     atomic.Pointer[answerCache] // nil: no cache (cache.go)
	stopWatch context.CancelFunc          // stops the cache's follower and listener
	watch     sync.WaitGroup

	stats resolutionStats // resolutions counted in memory (stats.go)
}

// IsPostgres reports whether dsn selects PostgreSQL.
func IsPostgres(dsn string) bool { return store.IsPostgres(dsn) }

// OpenStore opens the database dsn names and brings its schema up to
// date: a "postgres://" or "postgresql://" URL for PostgreSQL (through
// pgx), anything else a file path for SQLite, created if absent, in WAL
// mode with synchronous=FULL so that a write is on disk when it is
// acknowledged.
func OpenStore(ctx context.Context, dsn string) (*Store, error) {
	db, err := store.Open(ctx, dsn)
	if err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// SchemaVersion is the version the migrations bring a database to.
func SchemaVersion() int { return store.SchemaVersion() }

// Kind returns "sqlite" or "postgres".
func (s *Store) Kind() string { return s.db.Kind() }

// Close closes the database.
func (s *Store) Close() error {
	s.stopStats()
	if s.stopWatch != nil {
		s.stopWatch()
		s.watch.Wait()
	}
	return s.db.Close()
}

// Backup writes a consistent copy of a SQLite database to the new file
// path while the database stays online: VACUUM INTO reads one snapshot
// of the database in a read transaction, WAL frames included, so every
// write committed before it began is in the copy and none after it is.
// Copying the .db file instead can miss what is committed only in the
// -wal file. The copy is a complete database that OpenStore opens as it
// is; path must not exist. A PostgreSQL store is ErrBackupPostgres.
func (s *Store) Backup(ctx context.Context, path string) error { return s.db.Backup(ctx, path) }
