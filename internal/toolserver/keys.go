package toolserver

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
)

// namedKeys maps the key names press_key accepts, lower-cased, to the
// keys of chromedp's kb package.
var namedKeys = map[string]string{
	"enter":      kb.Enter,
	"return":     kb.Enter,
	"tab":        kb.Tab,
	"escape":     kb.Escape,
	"esc":        kb.Escape,
	"backspace":  kb.Backspace,
	"delete":     kb.Delete,
	"del":        kb.Delete,
	"space":      " ",
	"arrowup":    kb.ArrowUp,
	"up":         kb.ArrowUp,
	"arrowdown":  kb.ArrowDown,
	"down":       kb.ArrowDown,
	"arrowleft":  kb.ArrowLeft,
	"left":       kb.ArrowLeft,
	"arrowright": kb.ArrowRight,
	"right":      kb.ArrowRight,
	"home":       kb.Home,
	"end":        kb.End,
	"pageup":     kb.PageUp,
	"pagedown":   kb.PageDown,
	"insert":     kb.Insert,
	"f1":         kb.F1,
	"f2":         kb.F2,
	"f3":         kb.F3,
	"f4":         kb.F4,
	"f5":         kb.F5,
	"f6":         kb.F6,
	"f7":         kb.F7,
	"f8":         kb.F8,
	"f9":         kb.F9,
	"f10":        kb.F10,
	"f11":        kb.F11,
	"f12":        kb.F12,
}

var modifierKeys = map[string]kb.Modifier{
	"control": kb.ModifierCtrl,
	"ctrl":    kb.ModifierCtrl,
	"shift":   kb.ModifierShift,
	"alt":     kb.ModifierAlt,
	"option":  kb.ModifierAlt,
	"meta":    kb.ModifierMeta,
	"cmd":     kb.ModifierMeta,
	"command": kb.ModifierMeta,
}

const acceptedKeys = "Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown, Insert, F1 to F12, a single character, or a chord of Control, Shift, Alt or Meta with one of those (Control+a, Shift+Tab)"

// keyEvents turns a press_key name into the key events a keyboard sends:
// down, char (for keys that type something, unless Control, Alt or Meta
// is held) and up.
func keyEvents(name string) ([]*input.DispatchKeyEventParams, error) {
	if name == "" {
		return nil, fmt.Errorf("key is empty: use %s", acceptedKeys)
	}
	parts := strings.Split(name, "+")
	if strings.HasSuffix(name, "++") || name == "+" { // the "+" key itself
		parts = append(parts[:len(parts)-2], "+")
	}
	var mods kb.Modifier
	for _, p := range parts[:len(parts)-1] {
		m, ok := modifierKeys[strings.ToLower(strings.TrimSpace(p))]
		if !ok {
			return nil, fmt.Errorf("unknown modifier %q in key %q: use Control, Shift, Alt or Meta", p, name)
		}
		mods |= m
	}
	key := parts[len(parts)-1]
	if k := strings.TrimSpace(key); k != "" {
		key = k // " " (the space bar) stays itself
	}
	if named, ok := namedKeys[strings.ToLower(key)]; ok {
		key = named
	} else if utf8.RuneCountInString(key) != 1 {
		return nil, fmt.Errorf("unknown key %q: use %s", name, acceptedKeys)
	}
	r, _ := utf8.DecodeRuneInString(key)
	events := kb.Encode(r)
	if mods == 0 {
		return events, nil
	}
	shortcut := mods&(kb.ModifierCtrl|kb.ModifierAlt|kb.ModifierMeta) != 0
	out := events[:0]
	for _, e := range events {
		if shortcut && e.Type == input.DispatchKeyEventTypeChar {
			continue // a shortcut types nothing
		}
		e.Modifiers |= int64(mods)
		out = append(out, e)
	}
	return out, nil
}
