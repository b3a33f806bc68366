package uri

// resolveStepwise is RFC 3986 5.2.2 written step by step, as Resolve was
// before the Resolver (issue 18): T's components are chosen one at a
// time and recompose writes them. The tests hold Resolve and the
// Resolver to it byte for byte and component for component.
func (u URI) resolveStepwise(ref URI) URI {
	t := target{under: DropDots, literal: true, grammar: u.flags() & grammar2396}
	if ref.flags()&hasScheme != 0 {
		t.scheme = schemeOf(&ref)
		t.auth = ref.authority()
		t.path, t.dots = ref.Path(), true
		t.query = queryOf(&ref)
		t.grammar = ref.flags() & grammar2396
	} else {
		if ref.flags()&hasAuthority != 0 {
			t.auth = &ref
			t.path, t.dots = ref.Path(), true
			t.query = queryOf(&ref)
			t.grammar = ref.flags() & grammar2396
		} else {
			switch p := ref.Path(); {
			case p == "":
				t.path = u.Path()
				if ref.flags()&hasQuery != 0 {
					t.query = queryOf(&ref)
				} else {
					t.query = queryOf(&u)
				}
			case p[0] == '/':
				t.path, t.dots = p, true
				t.query = queryOf(&ref)
			default:
				t.dir, t.path, t.dots = u.mergeDir(), p, true
				t.query = queryOf(&ref)
			}
			t.auth = u.authority()
		}
		t.scheme = schemeOf(&u)
	}
	t.fragment = fragmentOf(&ref)
	r, _ := t.recompose()
	return r
}
