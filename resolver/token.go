package resolver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urikit/urikit/resolver/internal/store"
)

// A bearer token is "urt_" ID "_" SECRET: the ID (8 random bytes in hex)
// finds the token's row, the SECRET (32 random bytes, base64url) proves
// possession. The store keeps only SHA-256(SECRET): a stolen database
// gives no usable token, and because the secret has 256 bits of entropy
// a fast hash is enough (a slow password hash protects low-entropy
// secrets, which these are not). The comparison of hashes is
// constant-time (crypto/subtle), so the time a wrong secret takes to be
// refused says nothing about how much of it was right.
const tokenPrefix = "urt_"

// Token is a stored token, without its secret.
type Token struct {
	ID      string    `json:"id"`
	Scopes  []Scope   `json:"-"`
	Note    string    `json:"note,omitempty"`
	Created time.Time `json:"created"`
	Revoked time.Time `json:"revoked,omitzero"`
	// Registrar is the code of the registrar the token writes for (its
	// scope is the registrar's prefix), "" for a token of no registrar.
	Registrar string `json:"registrar,omitempty"`
	hash      []byte
}

// ScopeStrings returns the scopes as ParseScope reads them.
func (t Token) ScopeStrings() []string {
	out := make([]string, len(t.Scopes))
	for i, s := range t.Scopes {
		out[i] = s.String()
	}
	return out
}

// MarshalJSON writes the scopes as strings.
func (t Token) MarshalJSON() ([]byte, error) {
	type plain Token
	return json.Marshal(struct {
		plain
		Scopes []string `json:"scopes"`
	}{plain(t), t.ScopeStrings()})
}

// Allows reports whether the token may write the URN n.
func (t Token) Allows(n Name) bool {
	for _, s := range t.Scopes {
		if s.Allows(n) {
			return true
		}
	}
	return false
}

// Errors of token verification. Both make a 401.
var (
	ErrTokenInvalid = errors.New("invalid bearer token")
	ErrTokenRevoked = errors.New("revoked bearer token")
)

// CreateToken makes a token for the given scopes, stores its hash, and
// returns the token string: the only time the secret is seen.
func (s *Store) CreateToken(ctx context.Context, scopes []Scope, note string, a AuditEntry) (secret string, t Token, err error) {
	return s.createToken(ctx, scopes, "", note, a)
}

func (s *Store) createToken(ctx context.Context, scopes []Scope, registrar, note string, a AuditEntry) (secret string, t Token, err error) {
	if len(scopes) == 0 {
		return "", Token{}, errors.New("a token needs at least one namespace")
	}
	var id [8]byte
	var sec [32]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", Token{}, err
	}
	if _, err := rand.Read(sec[:]); err != nil {
		return "", Token{}, err
	}
	secPart := base64.RawURLEncoding.EncodeToString(sec[:])
	h := sha256.Sum256([]byte(secPart))
	t = Token{ID: hex.EncodeToString(id[:]), Scopes: scopes, Note: note, Created: a.At.UTC(), Registrar: registrar, hash: h[:]}
	detail, _ := json.Marshal(map[string]any{"scopes": t.ScopeStrings(), "note": note, "registrar": registrar})
	a.Action, a.URN, a.Detail = "token-create", t.ID, string(detail)
	row := store.TokenRow{ID: t.ID, Hash: t.hash, Scopes: strings.Join(t.ScopeStrings(), " "), Note: note, Created: a.At, Registrar: registrar}
	if err := s.db.InsertToken(ctx, row, a); err != nil {
		return "", Token{}, err
	}
	return tokenPrefix + t.ID + "_" + secPart, t, nil
}

// dummyHash is compared against when a token's ID is unknown, so that an
// unknown ID costs the same hash and comparison as a wrong secret.
var dummyHash = sha256.Sum256([]byte("urikit resolver: no such token"))

// verifyToken checks a bearer token string and returns its token:
// ErrTokenInvalid or ErrTokenRevoked when it may not write.
func verifyToken(ctx context.Context, db *store.DB, bearer string) (Token, error) {
	rest, ok := strings.CutPrefix(bearer, tokenPrefix)
	if !ok {
		return Token{}, ErrTokenInvalid
	}
	id, secret, ok := strings.Cut(rest, "_")
	if !ok || len(id) != 16 || len(secret) != 43 {
		return Token{}, ErrTokenInvalid
	}
	got := sha256.Sum256([]byte(secret))
	row, err := db.Token(ctx, id)
	want := row.Hash
	if errors.Is(err, ErrNotFound) {
		want = dummyHash[:]
	} else if err != nil {
		return Token{}, err
	}
	if subtle.ConstantTimeCompare(got[:], want) != 1 || errors.Is(err, ErrNotFound) {
		return Token{}, ErrTokenInvalid
	}
	if !row.Revoked.IsZero() {
		return Token{}, ErrTokenRevoked
	}
	return tokenOf(row)
}

// tokenOf reads a stored token's scopes.
func tokenOf(row store.TokenRow) (Token, error) {
	t := Token{ID: row.ID, Note: row.Note, Created: row.Created, Revoked: row.Revoked, Registrar: row.Registrar, hash: row.Hash}
	for _, f := range strings.Fields(row.Scopes) {
		sc, err := ParseScope(f)
		if err != nil {
			return Token{}, fmt.Errorf("token %s: stored scope: %w", row.ID, err)
		}
		t.Scopes = append(t.Scopes, sc)
	}
	return t, nil
}

// RevokeToken marks the token id revoked; it fails with ErrNotFound for
// an unknown id.
func (s *Store) RevokeToken(ctx context.Context, id string, a AuditEntry) error {
	a.Action, a.URN = "token-revoke", id
	return s.db.RevokeToken(ctx, id, a)
}

// Tokens lists the stored tokens, oldest first.
func (s *Store) Tokens(ctx context.Context) ([]Token, error) {
	rows, err := s.db.Tokens(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Token, 0, len(rows))
	for _, row := range rows {
		t, err := tokenOf(row)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}
