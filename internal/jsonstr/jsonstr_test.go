package jsonstr

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// marshal is what encoding/json, the peer, writes for s with HTML
// escaping off (as Append promises).
func marshal(t testing.TB, v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// allBytes is every byte 0-255, alone and in a run long enough for the
// eight-byte scan (NeedsNoEscape, AppendEscaped) to meet it in each
// position of a word.
func allBytes() []string {
	var ss []string
	for c := range 256 {
		ss = append(ss, string([]byte{byte(c)}))
		for pos := range 9 {
			ss = append(ss, strings.Repeat("a", pos)+string([]byte{byte(c)})+strings.Repeat("b", 16-pos))
		}
	}
	return ss
}

var specialStrings = []string{
	"", "a", `"`, `\`, "<>&", "\x00\x01\x1f\x7f", "\t\n\r\b\f", "é€😀",
	"\xff", "a\xc3", "\xc3\x28", "\xed\xa0\x80", "\u2028\u2029", "\ufffd", "x\xf0\x9f\x98y",
	"http://a/b?c=d#e", "01234567", "0123456\"", "\"1234567", "0123456789abcde\u2028",
	strings.Repeat("x", 100) + "\x00", strings.Repeat("é", 50),
}

// TestAppend: every string, every byte 0-255 in every position of a
// word included, is written as encoding/json writes it (invalid UTF-8
// as U+FFFD, U+2028 and U+2029 escaped), and NeedsNoEscape says
// exactly when that is the string itself between quotes.
func TestAppend(t *testing.T) {
	for _, s := range append(allBytes(), specialStrings...) {
		got := string(Append(nil, s))
		if want := marshal(t, s); got != want {
			t.Errorf("Append(%q) = %s, encoding/json gives %s", s, got, want)
		}
		if plain := got == `"`+s+`"`; NeedsNoEscape(s) && !plain {
			t.Errorf("NeedsNoEscape(%q) = true, but it is written %s", s, got)
		}
		if esc := string(AppendEscaped([]byte("x"), s)); esc != "x"+got[1:len(got)-1] {
			t.Errorf("AppendEscaped(%q) = %s, want the inside of %s", s, esc, got)
		}
	}
	for c := range 256 {
		s := strings.Repeat("a", 9) + string([]byte{byte(c)})
		want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
		if NeedsNoEscape(s) != want || NeedsNoEscape(s[9:]) != want {
			t.Errorf("NeedsNoEscape with byte %#x: %v, want %v", c, NeedsNoEscape(s), want)
		}
	}
}

// TestNeedsNoEscapeEveryPlace puts every byte value at every place of
// strings of every length up to 80, among bytes that need no escape
// ("~", the highest, and " ", the lowest: a carry or a borrow from the
// byte below would show): lengths that end in each lane of a word, in the
// blocks of four words NeedsNoEscape tests together, in the words after
// them and in the overlapping last one. Two bytes that each need no
// escape never make a string that does.
func TestNeedsNoEscapeEveryPlace(t *testing.T) {
	for n := 1; n <= 80; n++ {
		for _, fill := range []byte{'~', ' '} {
			b := bytes.Repeat([]byte{fill}, n)
			if !NeedsNoEscape(string(b)) {
				t.Fatalf("NeedsNoEscape(%q) = false", b)
			}
			for pos := range n {
				for c := range 256 {
					b[pos] = byte(c)
					want := c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
					if got := NeedsNoEscape(string(b)); got != want {
						t.Fatalf("NeedsNoEscape of %d bytes with %#x at %d: %v, want %v", n, c, pos, got, want)
					}
				}
				b[pos] = fill
			}
		}
	}
}

// TestObject: the values an Object writes, nested objects and arrays,
// null, numbers, booleans, raw JSON, hex, keys that need escaping,
// parse with encoding/json to what was written. Each row writes one
// object and gives the value encoding/json must read back.
func TestObject(t *testing.T) {
	for _, tt := range []struct {
		name  string
		write func(o *Object)
		want  any
	}{
		{"empty", func(o *Object) {}, map[string]any{}},
		{"strings", func(o *Object) {
			o.Str("a", "x\x00\"").LongStr("b", "\u2028").Opt("c", "y", true).Opt("d", "", false).
				LongOpt("e", "z", true).LongOpt("f", "", false).Part("g", "http://a/", true, true).Part("h", "", false, true).Part("i", "\x00", true, false).Part("j", "", false, false)
		}, map[string]any{"a": "x\x00\"", "b": "\u2028", "c": "y", "d": nil, "e": "z", "f": nil, "g": "http://a/", "h": nil, "i": "\x00", "j": nil}},
		{"numbers", func(o *Object) { o.Int("n", 0).Int("m", 65535).Int("neg", -1).Bool("t", true).Bool("f", false) },
			map[string]any{"n": 0.0, "m": 65535.0, "neg": nil, "t": true, "f": false}},
		{"nested", func(o *Object) {
			o.Key("o").Open().Str("x", "1").Key("p").Open().Close().Close().Array("a").End().Array("b")
			o.Elem().Open().Int("k", 1).Close()
			o.Elem().Value("s")
			o.Elem().Pair("k", "v\n")
			o.Elem().NullValue()
			o.Elem().LongValue("é")
			o.End().Str("after", "z")
		}, map[string]any{"o": map[string]any{"x": "1", "p": map[string]any{}}, "a": []any{},
			"b": []any{map[string]any{"k": 1.0}, "s", []any{"k", "v\n"}, nil, "é"}, "after": "z"}},
		{"lists", func(o *Object) {
			o.Strs("s", []string{"a", "\xff"}).Strs("e", nil).
				StrSeq("q", strings.SplitSeq("a,b", ",")).
				PairSeq("p", func(yield func(string, string) bool) { yield("k", "v") })
		}, map[string]any{"s": []any{"a", "\ufffd"}, "e": []any{}, "q": []any{"a", "b"}, "p": []any{[]any{"k", "v"}}}},
		{"raw", func(o *Object) { o.Raw("r", []byte(`{"x":[1,null]}`)).Null("n") },
			map[string]any{"r": map[string]any{"x": []any{1.0, nil}}, "n": nil}},
		{"hex and keys", func(o *Object) { o.Hex("h", "\xff\x00a").AnyKey("q:\"k\"").Value("v") },
			map[string]any{"h": "ff0061", "q:\"k\"": "v"}},
	} {
		var o Object
		o.Open()
		tt.write(&o)
		o.Close()
		var got any
		if err := json.Unmarshal(o.B, &got); err != nil {
			t.Errorf("%s: %s does not parse: %v", tt.name, o.B, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %s reads as %v, want %v", tt.name, o.B, got, tt.want)
		}
	}
}

// TestFlush: with a Flush, a long string and a long array are written
// in blocks, B never holding much more than FlushSize, and the bytes
// flushed and left are the same JSON as without.
func TestFlush(t *testing.T) {
	long := strings.Repeat("é\x00a", FlushSize)
	var whole Object
	whole.Open().LongStr("s", long).Strs("a", strings.Split(long, "a")).Hex("h", long[:3*FlushSize]).Close()

	var out []byte
	maxB := 0
	o := Object{Flush: func(b []byte) []byte {
		maxB = max(maxB, len(b))
		out = append(out, b...)
		return b[:0]
	}}
	o.Open().LongStr("s", long).Strs("a", strings.Split(long, "a")).Hex("h", long[:3*FlushSize]).Close()
	out = append(out, o.B...)
	if !bytes.Equal(out, whole.B) {
		t.Errorf("flushed output differs from the whole (%d and %d bytes)", len(out), len(whole.B))
	}
	if maxB == 0 || maxB > 8*FlushSize {
		t.Errorf("B held up to %d bytes before a flush (FlushSize %d)", maxB, FlushSize)
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil || v["s"] != long {
		t.Errorf("flushed output does not read back: %v", err)
	}
}

// FuzzObject: whatever the strings, an object written with every kind
// of member and element parses with encoding/json to the same value;
// Part, told that a string NeedsNoEscape accepts needs none, writes
// what Str writes.
func FuzzObject(f *testing.F) {
	for _, s := range specialStrings {
		f.Add(s, "k", int64(7))
	}
	f.Fuzz(func(t *testing.T, s, k string, n int64) {
		var o Object
		o.Open().Str("s", s).LongStr("l", s).AnyKey(k).Value(s).Int("n", int(n)).Bool("b", n%2 == 0).Null("z").
			Array("a").Elem().Value(s).Elem().Pair(k, s).Elem().Open().Str("x", s).Close().End().
			Strs("ss", []string{s, k}).Hex("h", s).Key("r").Open().Close()
		o.Part("v", s, true, NeedsNoEscape(s))
		o.Close()
		var got map[string]any
		if err := json.Unmarshal(o.B, &got); err != nil {
			t.Fatalf("%q does not parse: %v", o.B, err)
		}
		// Each byte of invalid UTF-8 is written U+FFFD, as a conversion
		// to runes reads it.
		v, kv := string([]rune(s)), string([]rune(k))
		var num any = float64(n)
		if n < 0 || int64(int(n)) != n {
			num = nil
		}
		want := map[string]any{"s": v, "l": v, kv: v, "n": num, "b": n%2 == 0, "z": nil,
			"a": []any{v, []any{kv, v}, map[string]any{"x": v}}, "ss": []any{v, kv},
			"h": hexOf(s), "r": map[string]any{}, "v": v}
		if kv == "s" || kv == "l" || kv == "n" || kv == "b" || kv == "z" || kv == "a" || kv == "ss" || kv == "h" || kv == "r" || kv == "v" {
			return // a duplicate key: the last wins, which the map cannot show
		}
		if float64(n) != float64(int64(float64(n))) && num != nil {
			want["n"] = got["n"] // beyond float64's exact integers: encoding/json rounds
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s reads as\n%v, want\n%v", o.B, got, want)
		}
	})
}

func hexOf(s string) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, digits[s[i]>>4], digits[s[i]&15])
	}
	return string(b)
}
