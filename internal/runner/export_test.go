package runner

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"
)

// Dump writes out everything p holds, following pointers, slices and
// maps into what they point at, unexported fields included; a function
// is written as its address. Two dumps of a plan differ when anything
// reachable from it changed.
func Dump(p *Plan) string {
	var b strings.Builder
	dump(&b, reflect.ValueOf(p), map[uintptr]bool{})
	return b.String()
}

func dump(b *strings.Builder, v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Kind() == reflect.Pointer {
			if v.Type().Elem() == reflect.TypeFor[time.Location]() {
				// A location caches the zone of its last use.
				fmt.Fprintf(b, "%s@%x", v.Type(), v.Pointer())
				return
			}
			if seen[v.Pointer()] {
				fmt.Fprintf(b, "@%x", v.Pointer())
				return
			}
			seen[v.Pointer()] = true
			b.WriteByte('&')
			dump(b, v.Elem(), seen)
			return
		}
	}
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		dump(b, v.Elem(), seen)
	case reflect.Struct:
		b.WriteString(v.Type().String() + "{")
		for i := range v.NumField() {
			b.WriteString(v.Type().Field(i).Name + ":")
			dump(b, v.Field(i), seen)
			b.WriteByte(' ')
		}
		b.WriteByte('}')
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(b, "%x", v.Bytes())
			return
		}
		b.WriteByte('[')
		for i := range v.Len() {
			dump(b, v.Index(i), seen)
			b.WriteByte(' ')
		}
		b.WriteByte(']')
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(fmt.Sprint(x), fmt.Sprint(y)) })
		b.WriteString("map[")
		for _, k := range keys {
			dump(b, k, seen)
			b.WriteByte(':')
			dump(b, v.MapIndex(k), seen)
			b.WriteByte(' ')
		}
		b.WriteByte(']')
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		fmt.Fprintf(b, "%s@%x", v.Type(), v.Pointer())
	default:
		fmt.Fprint(b, v)
	}
}
