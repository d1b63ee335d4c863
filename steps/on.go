package steps

import (
	"context"
	"fmt"
	"reflect"
)

var (
	ctxType   = reflect.TypeFor[context.Context]()
	errType   = reflect.TypeFor[error]()
	worldType = reflect.TypeFor[*world]()
)

// on adapts f, a func(*world, args...) error, into the step handler godog
// calls: func(context.Context, args...) error, with the world taken from the
// scenario's context. It panics when f has another shape: that is a
// programming error at registration, never a reaction to an adapter.
func on(f any) any {
	fv := reflect.ValueOf(f)
	ft := fv.Type()
	if ft.Kind() != reflect.Func || ft.NumIn() == 0 || ft.In(0) != worldType ||
		ft.NumOut() != 1 || ft.Out(0) != errType {
		panic(fmt.Sprintf("steps: handler must be func(*world, ...) error, got %s", ft))
	}
	in := []reflect.Type{ctxType}
	for i := 1; i < ft.NumIn(); i++ {
		in = append(in, ft.In(i))
	}
	handler := reflect.FuncOf(in, []reflect.Type{errType}, false)
	return reflect.MakeFunc(handler, func(args []reflect.Value) []reflect.Value {
		w, err := from(args[0].Interface().(context.Context))
		if err != nil {
			return []reflect.Value{reflect.ValueOf(&err).Elem()}
		}
		return fv.Call(append([]reflect.Value{reflect.ValueOf(w)}, args[1:]...))
	}).Interface()
}

// strictly adapts handler, a step handler godog calls (its first argument
// the scenario's context), into one whose failure counts at level strict
// only (world.strictRule). It panics when handler has another shape.
func strictly(handler any) any {
	hv := reflect.ValueOf(handler)
	ht := hv.Type()
	if ht.Kind() != reflect.Func || ht.NumIn() == 0 || ht.In(0) != ctxType || ht.NumOut() != 1 || ht.Out(0) != errType {
		panic(fmt.Sprintf("steps: strict handler must be func(context.Context, ...) error, got %s", ht))
	}
	return reflect.MakeFunc(ht, func(args []reflect.Value) []reflect.Value {
		w, err := from(args[0].Interface().(context.Context))
		if err != nil {
			return []reflect.Value{reflect.ValueOf(&err).Elem()}
		}
		from := len(w.evidence)
		out := hv.Call(args)
		err, _ = out[0].Interface().(error)
		err = w.strictRule(from, err)
		return []reflect.Value{reflect.ValueOf(&err).Elem()}
	}).Interface()
}
