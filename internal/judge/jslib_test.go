package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// The helpers of js/lib need no page: each module is tested here alone,
// without a browser, in a JavaScript engine written in Go, through what
// it exports.

// libVM is an engine with the exports of js/lib's modules as globals.
func libVM(t *testing.T) *goja.Runtime {
	t.Helper()
	vm := goja.New()
	loadModules(t, vm, "lib/tree.js", "lib/colour.js", "lib/shapes.js", "lib/text.js")
	return vm
}

// loadModules runs in vm each module of js/ named, bundled alone with
// what it imports, and makes its exports globals.
func loadModules(t *testing.T, vm *goja.Runtime, modules ...string) {
	t.Helper()
	for _, m := range modules {
		src := bundle(t, m, "exported", false) + "Object.assign(globalThis, exported);"
		if _, err := vm.RunScript(m, src); err != nil {
			t.Fatalf("js/%s: %v", m, err)
		}
	}
}

// evalJSON evaluates expr and returns its value as JSON.
func evalJSON(t *testing.T, vm *goja.Runtime, expr string) string {
	t.Helper()
	v, err := vm.RunString("JSON.stringify(" + expr + ")")
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v.String()
}

func TestLibFold(t *testing.T) {
	vm := libVM(t)
	for _, c := range []struct{ segs, text string }{
		{`[{s: "Status:"}, {s: " "}, {s: "Shipped"}]`, "Status: Shipped"},
		{`[{s: "  a \n\t b  "}]`, "a b"},
		{`[{s: "1.2\u00a0"}, {s: "kg"}]`, "1.2 kg"},
		{`[{s: "\n"}, {s: "Status:"}, {s: "\n"}, {s: "\n"}, {s: "Shipped"}, {s: "\n"}]`, "Status: Shipped"},
		{`[{s: "Status:"}, {s: "Shipped"}]`, "Status:Shipped"},
		{`[{s: "a\u200bb"}]`, "a\u200bb"}, // a zero-width space is not white space
		{`[]`, ""},
		{`[{s: "\ufeffa"}]`, "\ufeffa"}, // not white space, so not trimmed
		{`[{s: " \u3000 "}]`, ""},
	} {
		for _, fn := range []string{"fold(" + c.segs + ").text", "foldText(" + c.segs + ")"} {
			var got string
			if err := json.Unmarshal([]byte(evalJSON(t, vm, fn)), &got); err != nil {
				t.Fatal(err)
			}
			if got != c.text {
				t.Errorf("%s = %q, want %q", fn, got, c.text)
			}
		}
	}
}

func TestLibSpansOf(t *testing.T) {
	vm := libVM(t)
	// "Order " is the ::before of node B; "7731" is in text node A from 10;
	// a separator without a node between them.
	if _, err := vm.RunString(`
		var A = {name: "A"}, B = {name: "B"};
		var segs = [{s: "Order ", node: B, at: -1, pseudo: true}, {s: " "}, {s: "id 7731 done", node: A, at: 7}];
		var f = fold(segs);
		var idOf = (n) => n === A ? 1 : 2;
	`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ needle, spans string }{
		{"Order id 7731", `[[2,-1,0],[1,7,14]]`},
		{"7731", `[[1,10,14]]`},
		{"id 7731 done", `[[1,7,19]]`},
	} {
		got := evalJSON(t, vm, `spansOf(segs, f, f.text.indexOf(`+jsString(c.needle)+`), `+jsString(c.needle)+`.length, idOf)`)
		if got != c.spans {
			t.Errorf("spans of %q = %s, want %s", c.needle, got, c.spans)
		}
	}
}

func TestLibContentText(t *testing.T) {
	vm := libVM(t)
	if _, err := vm.RunString(`var attr = (n) => ({"data-id": "7731"})[n] || null;`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ content, text string }{
		{`"Shipped"`, "Shipped"},
		{`"Order " attr(data-id)`, "Order 7731"},
		{`attr(data-missing) "x"`, "x"},
		{`open-quote "hi" close-quote`, `"hi"`},
		{`"\2014  a"`, "\u2014 a"},
		{`"it\'s"`, "it's"},
		{`url("x.png") "after"`, "after"},
		{`counter(item) ". "`, ". "},
		{`"Seen" / "alt text"`, "Seen"},
		{`none`, ""},
		{`normal`, ""},
	} {
		var got string
		if err := json.Unmarshal([]byte(evalJSON(t, vm, "contentText("+jsString(c.content)+", attr)")), &got); err != nil {
			t.Fatal(err)
		}
		if got != c.text {
			t.Errorf("contentText(%s) = %q, want %q", c.content, got, c.text)
		}
	}
}

func TestLibClipPathBox(t *testing.T) {
	vm := libVM(t)
	if _, err := vm.RunString(`var b = {left: 0, top: 0, right: 200, bottom: 100, width: 200, height: 100}; var none = (id) => id === "empty";`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, box string }{
		{"inset(10px 20px)", `{"l":20,"t":10,"r":180,"b":90}`},
		{"inset(50%)", `{"l":100,"t":50,"r":100,"b":50}`},
		{"polygon(0 0, 0 0, 0 0)", `{"l":0,"t":0,"r":0,"b":0}`},
		{"polygon(10% 0, 50% 0, 50% 100%)", `{"l":20,"t":0,"r":100,"b":100}`},
		{"circle(0 at 50% 50%)", `{"l":0,"t":0,"r":0,"b":0}`},
		{"circle(40%)", `{"l":0,"t":0,"r":200,"b":100}`},
		{`url("#empty")`, `{"l":0,"t":0,"r":0,"b":0}`},
		{`url(#other)`, `{"l":0,"t":0,"r":200,"b":100}`},
	} {
		if got := evalJSON(t, vm, "clipPathBox("+jsString(c.path)+", b, none)"); got != c.box {
			t.Errorf("clipPathBox(%s) = %s, want %s", c.path, got, c.box)
		}
	}
}

func TestLibColour(t *testing.T) {
	vm := libVM(t)
	for _, c := range []struct{ expr, want string }{
		{`rgba("rgb(1, 2, 3)")`, `[1,2,3,1]`},
		{`rgba("rgba(1, 2, 3, 0.5)")`, `[1,2,3,0.5]`},
		{`rgba("rgb(1 2 3 / 0.25)")`, `[1,2,3,0.25]`},
		{`rgba("transparent")`, `[0,0,0,0]`},
		{`rgba("color(srgb 1 0 0)")`, `null`},
		{`transparent("rgba(0, 0, 0, 0.04)", 0.05)`, `true`},
		{`transparent("rgba(0, 0, 0, 0.05)", 0.05)`, `false`},
		{`transparent("color(srgb 1 0 0 / 0)", 0.05)`, `false`}, // a form it does not read
		{`Math.round(contrast([0, 0, 0], [255, 255, 255]))`, `21`},
		{`contrast([255, 255, 255], [255, 255, 255])`, `1`},
		{`contrast([233, 233, 233], [255, 255, 255]) < 1.25`, `true`},
	} {
		if got := evalJSON(t, vm, c.expr); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}

func TestLibCutTextAndExcerpt(t *testing.T) {
	vm := libVM(t)
	for _, c := range []struct{ expr, want string }{
		{`cutText("abcdef", 3)`, `"abc"`},
		{`cutText("ab\ud83d\ude00", 3)`, `"ab"`}, // never half a surrogate pair
		{`cutText("abc", 10)`, `"abc"`},
		{`excerpt("x".repeat(100) + "needle" + "y".repeat(100), 100, 6)`, `"…` + strings.Repeat("x", 60) + "needle" + strings.Repeat("y", 60) + `…"`},
		{`excerpt("a needle b", 2, 6)`, `"a needle b"`},
	} {
		if got := evalJSON(t, vm, c.expr); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}

// The flat tree: slots and shadow roots, on nodes that are plain objects.
func TestLibTree(t *testing.T) {
	vm := libVM(t)
	// A host with a shadow root holding a slot, and a light child
	// assigned to it; a second child of the document's root after it.
	if _, err := vm.RunString(`
		var el = (name, kids) => {
			const e = {nodeType: 1, name, childNodes: kids || []};
			e.childNodes.forEach((c) => { c.parentNode = e; });
			return e;
		};
		var slot = el("slot"), light = el("light"), host = el("host", [light]), after = el("after");
		var shadow = {nodeType: 11, host, childNodes: [slot]};
		slot.parentNode = shadow; host.shadowRoot = shadow; light.assignedSlot = slot;
		var top = el("html", [host, after]);
		top.parentNode = {nodeType: 9};
		var doc = {documentElement: top};
	`); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ expr, want string }{
		{`flatParent(light).name`, `"slot"`},
		{`flatParent(slot).name`, `"host"`},
		{`flatParentElement(top)`, `null`},
		{`flatContains(host, light)`, `true`},
		{`flatContains(light, host)`, `false`},
		{`Array.from(composedOrder(doc), ([e, i]) => e.name + i)`, `["html0","host1","slot2","light3","after4"]`},
	} {
		if got := evalJSON(t, vm, c.expr); got != c.want {
			t.Errorf("%s = %s, want %s", c.expr, got, c.want)
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
