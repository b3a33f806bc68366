package scheme

import (
	"strings"

	"github.com/urikit/urikit/uri"
)

// MessageID is the view of a mid or cid URL (RFC 2392; the 1994 draft:
// "mid:" addr-spec, "cid:" content-identifier):
//
//	mid = "mid:" message-id [ "/" content-id ]
//	cid = "cid:" content-id
//
// RFC 2392 2: the ids are written without their angle brackets, and
// percent-decoded.
type MessageID struct {
	ref              // the URL: String, Redacted and Format
	msgID, contentID string
	hasMsg, hasCont  bool
}

// ParseMessageID reads a mid or cid URL.
func ParseMessageID(u uri.URI) (MessageID, error) {
	if err := checkScheme(u, "mid", "cid"); err != nil {
		return MessageID{}, err
	}
	if u.HasAuthority() || u.HasQuery() || u.Path() == "" {
		return MessageID{}, fail(u, len(u.Scheme())+1, uri.ComponentPath, ErrSchemeSyntax)
	}
	var v MessageID
	if strings.EqualFold(u.Scheme(), "cid") {
		v.contentID, v.hasCont = decode(u.Path()), true
		v.ref = ref{u}
		return v, nil
	}
	m, c, hasC := strings.Cut(u.Path(), "/")
	if m == "" || hasC && c == "" {
		return MessageID{}, fail(u, len(u.Scheme())+1+len(m), uri.ComponentPath, ErrSchemeSyntax)
	}
	v.msgID, v.hasMsg = decode(m), true
	if hasC {
		v.contentID, v.hasCont = decode(c), true
	}
	v.ref = ref{u}
	return v, nil
}

// MessageID returns the message-id, and whether there is one (mid).
func (v MessageID) MessageID() (string, bool) { return v.msgID, v.hasMsg }

// ContentID returns the content-id, and whether there is one.
func (v MessageID) ContentID() (string, bool) { return v.contentID, v.hasCont }

// Warnings implements View: none.
func (v MessageID) Warnings() []Warning { return nil }

// MarshalJSON writes the "scheme_data" object of `uri parse --json`.
func (v MessageID) MarshalJSON() ([]byte, error) {
	return done(newObj().Opt("message_id", v.msgID, v.hasMsg).Opt("content_id", v.contentID, v.hasCont))
}
