package uribeam

import (
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/util/reflectx"
)

// registerStruct registers the struct DoFn type T with Beam, and how to
// call its methods without reflection: methods gives them as func
// values, and reflectx.MakeFunc calls each through the caller that
// register.Function* registered for its type (else by reflection, fine
// for a method called once a bundle). It does for one DoFn what
// register.DoFnNxM does, without instantiating Beam's generic wrappers
// for every form each lifecycle method could take (about 3,000
// functions to compile per DoFn).
func registerStruct[T any](methods func(*T) map[string]any) {
	t := reflect.TypeOf((*T)(nil)).Elem()
	beam.RegisterType(t)
	reflectx.RegisterStructWrapper(t, func(fn any) map[string]reflectx.Func {
		m := map[string]reflectx.Func{}
		for name, f := range methods(fn.(*T)) {
			m[name] = reflectx.MakeFunc(f)
		}
		return m
	})
}
