package htmldoc

// scope follows, from the tokens alone, the two places where the HTML
// standard's tree builder puts a base element out of the document, so
// that its href is not the document's base:
//
//   - the contents of a template element, which go to a separate
//     DocumentFragment ("the template contents"), not into the Document;
//   - foreign content: a <base> inside <svg> or <math> makes an SVG or
//     MathML element named base, not an HTML base element ("the rules
//     for parsing tokens in foreign content").
//
// It is the tree builder reduced to what decides these two: the open
// template elements (counted) and the open foreign elements (a stack,
// for end tags and integration points); HTML elements are not tracked,
// so a page whose end tags do not match its start tags may be read
// differently from a browser in foreign content. Memory is bounded:
// foreign elements nested deeper than maxForeign are only counted.
type scope struct {
	template int           // open template elements
	foreign  []foreignElem // open foreign elements, outermost first
	deep     int           // foreign elements open past maxForeign
}

// maxForeign bounds the foreign elements scope keeps by name.
const maxForeign = 256

type foreignElem struct {
	name string
	math bool // MathML, else SVG
	// ip: an HTML integration point or a MathML text integration point,
	// whose start tags are HTML again (HTML standard, tree construction
	// dispatcher).
	ip bool
}

// inForeign reports whether a start tag now makes a foreign element.
func (s *scope) inForeign() bool {
	n := len(s.foreign)
	return s.deep > 0 || (n > 0 && !s.foreign[n-1].ip)
}

// inDocument reports whether an HTML element started now would be in
// the Document: not in a template's contents, not foreign.
func (s *scope) inDocument() bool { return s.template == 0 && !s.inForeign() }

// start records a start tag. attr returns the value of an attribute of
// the tag (for <font> and <annotation-xml>). It returns false when the
// tag makes a foreign element.
func (s *scope) start(name []byte, selfClosing bool, attr func(string) (string, bool)) bool {
	if s.inForeign() {
		if !breakout(name, attr) {
			s.push(name, selfClosing, attr)
			return false
		}
		// "While the current node is not a MathML text integration
		// point, an HTML integration point, or an element in the HTML
		// namespace, pop elements from the stack of open elements."
		s.deep = 0
		for n := len(s.foreign); n > 0 && !s.foreign[n-1].ip; n-- {
			s.foreign = s.foreign[:n-1]
		}
	}
	switch string(name) {
	case "svg", "math":
		s.push(name, selfClosing, attr)
	case "template":
		// Not a void element: "<template/>" opens one all the same.
		s.template++
	}
	return true
}

// push opens a foreign element (a self-closing one is popped at once).
func (s *scope) push(name []byte, selfClosing bool, attr func(string) (string, bool)) {
	if selfClosing {
		return
	}
	if s.deep > 0 || len(s.foreign) == maxForeign {
		s.deep++
		return
	}
	math := string(name) == "math"
	if n := len(s.foreign); n > 0 && !s.foreign[n-1].ip {
		// A child takes its parent's namespace; an <svg> in a MathML
		// annotation-xml is SVG.
		p := s.foreign[n-1]
		math = p.math && !(string(name) == "svg" && p.name == "annotation-xml")
	}
	e := foreignElem{name: string(name), math: math}
	if math {
		switch e.name {
		case "mi", "mo", "mn", "ms", "mtext":
			e.ip = true
		case "annotation-xml":
			if v, ok := attr("encoding"); ok {
				switch lowerASCII(v) {
				case "text/html", "application/xhtml+xml":
					e.ip = true
				}
			}
		}
	} else {
		switch e.name {
		case "foreignobject", "desc", "title": // names come lower-cased
			e.ip = true
		}
	}
	s.foreign = append(s.foreign, e)
}

// end records an end tag.
func (s *scope) end(name []byte) {
	if s.deep > 0 {
		s.deep--
		return
	}
	if len(s.foreign) > 0 {
		if string(name) == "br" || string(name) == "p" {
			if s.inForeign() {
				// An end tag br or p breaks out of foreign content.
				for n := len(s.foreign); n > 0 && !s.foreign[n-1].ip; n-- {
					s.foreign = s.foreign[:n-1]
				}
			}
			return
		}
		// "Any other end tag" in foreign content: the nearest open
		// element of that name is closed with everything inside it.
		for i := len(s.foreign) - 1; i >= 0; i-- {
			if s.foreign[i].name == string(name) {
				s.foreign = s.foreign[:i]
				return
			}
		}
	}
	if string(name) == "template" && s.template > 0 {
		// Closing a template closes the foreign elements inside it.
		s.template--
		s.foreign = s.foreign[:0]
	}
}

// breakout reports whether a start tag ends foreign content: the HTML
// standard lists them under "the rules for parsing tokens in foreign
// content" (font only with a color, face or size attribute).
func breakout(name []byte, attr func(string) (string, bool)) bool {
	switch string(name) {
	case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt",
		"em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li",
		"listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span",
		"strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var":
		return true
	case "font":
		for _, a := range []string{"color", "face", "size"} {
			if _, ok := attr(a); ok {
				return true
			}
		}
	}
	return false
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
