package pyscan

/*
#cgo CFLAGS: -std=c11 -O2
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

// The few declarations of tree_sitter/api.h (v0.25 layout) this shim needs.
// The definitions are linked in from github.com/tree-sitter/go-tree-sitter,
// which compiles the core (blank import in flat_link.go); the Python grammar
// comes from tree-sitter-python's Go binding.
typedef uint16_t TSSymbol;
typedef uint16_t TSFieldId;
typedef struct TSLanguage TSLanguage;
typedef struct TSParser TSParser;
typedef struct TSTree TSTree;
typedef struct TSPoint { uint32_t row; uint32_t column; } TSPoint;
typedef struct TSNode { uint32_t context[4]; const void *id; const TSTree *tree; } TSNode;
typedef struct TSTreeCursor { const void *tree; const void *id; uint32_t context[3]; } TSTreeCursor;

extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
extern TSParser *ts_parser_new(void);
extern void ts_parser_delete(TSParser *);
extern bool ts_parser_set_language(TSParser *, const TSLanguage *);
extern void ts_parser_reset(TSParser *);
extern TSTree *ts_parser_parse_string(TSParser *, const TSTree *, const char *, uint32_t);
extern void ts_tree_delete(TSTree *);
extern TSNode ts_tree_root_node(const TSTree *);
extern uint32_t ts_node_start_byte(TSNode);
extern uint32_t ts_node_end_byte(TSNode);
extern TSPoint ts_node_start_point(TSNode);
extern TSPoint ts_node_end_point(TSNode);
extern TSSymbol ts_node_symbol(TSNode);
extern bool ts_node_is_named(TSNode);
extern bool ts_node_is_missing(TSNode);
extern bool ts_node_is_extra(TSNode);
extern bool ts_node_is_error(TSNode);
extern bool ts_node_has_error(TSNode);
extern TSTreeCursor ts_tree_cursor_new(TSNode);
extern void ts_tree_cursor_delete(TSTreeCursor *);
extern TSNode ts_tree_cursor_current_node(const TSTreeCursor *);
extern TSFieldId ts_tree_cursor_current_field_id(const TSTreeCursor *);
extern bool ts_tree_cursor_goto_first_child(TSTreeCursor *);
extern bool ts_tree_cursor_goto_next_sibling(TSTreeCursor *);
extern bool ts_tree_cursor_goto_parent(TSTreeCursor *);
extern uint32_t ts_language_symbol_count(const TSLanguage *);
extern const char *ts_language_symbol_name(const TSLanguage *, TSSymbol);
extern TSSymbol ts_language_symbol_for_name(const TSLanguage *, const char *, uint32_t, bool);
extern TSFieldId ts_language_field_id_for_name(const TSLanguage *, const char *, uint32_t);

enum { FLAG_NAMED = 1, FLAG_ERROR = 2, FLAG_MISSING = 4, FLAG_EXTRA = 8 };

// FNode is one node of the flattened pre-order tree. The first child of
// node i is i+1 (when size > 1); its next sibling is i+size.
typedef struct {
	uint32_t start_byte, end_byte, row, col, end_row, end_col, size;
	uint16_t sym, field;
	uint8_t flags, pad[3];
} FNode;

static void flat_reset_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }

static uint16_t flat_symbol(const TSLanguage *lang, _GoString_ name, int named) {
	return ts_language_symbol_for_name(lang, _GoStringPtr(name), (uint32_t)_GoStringLen(name), named != 0);
}

static uint16_t flat_field(const TSLanguage *lang, _GoString_ name) {
	return ts_language_field_id_for_name(lang, _GoStringPtr(name), (uint32_t)_GoStringLen(name));
}

// flat_parse parses src, copies the tree into *buf (grown as needed) and
// deletes the tree before returning, so no tree ever outlives this call.
// It returns the node count, or 0 when tree-sitter produced no tree (the
// caller treats that as an internal failure).
static uint32_t flat_parse(TSParser *p, const char *src, uint32_t len, FNode **buf, uint32_t *cap) {
	TSTree *t = ts_parser_parse_string(p, NULL, src, len);
	if (t == NULL) {
		ts_parser_reset(p);
		return 0;
	}
	TSNode root = ts_tree_root_node(t);
	TSTreeCursor c = ts_tree_cursor_new(root);
	uint32_t n = 0, sp = 0, scap = 256;
	uint32_t *stack = malloc(scap * sizeof *stack);
	if (stack == NULL) goto fail;
	for (;;) {
		if (n == *cap) {
			uint32_t ncap = *cap ? *cap * 2 : 4096;
			FNode *nb = realloc(*buf, ncap * sizeof(FNode));
			if (nb == NULL) goto fail;
			*buf = nb;
			*cap = ncap;
		}
		if (sp == scap) {
			uint32_t *ns = realloc(stack, scap * 2 * sizeof *stack);
			if (ns == NULL) goto fail;
			stack = ns;
			scap *= 2;
		}
		TSNode node = ts_tree_cursor_current_node(&c);
		FNode *f = &(*buf)[n];
		TSPoint s = ts_node_start_point(node), e = ts_node_end_point(node);
		f->start_byte = ts_node_start_byte(node);
		f->end_byte = ts_node_end_byte(node);
		f->row = s.row; f->col = s.column; f->end_row = e.row; f->end_col = e.column;
		f->sym = ts_node_symbol(node);
		f->field = ts_tree_cursor_current_field_id(&c);
		f->flags = (ts_node_is_named(node) ? FLAG_NAMED : 0) |
			(ts_node_is_error(node) ? FLAG_ERROR : 0) |
			(ts_node_is_missing(node) ? FLAG_MISSING : 0) |
			(ts_node_is_extra(node) ? FLAG_EXTRA : 0);
		f->size = 0;
		stack[sp++] = n++;
		if (ts_tree_cursor_goto_first_child(&c)) continue;
		for (;;) {
			uint32_t idx = stack[--sp];
			(*buf)[idx].size = n - idx;
			if (ts_tree_cursor_goto_next_sibling(&c)) break;
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
		}
	}
done:
	free(stack);
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
	return n;
fail:
	free(stack);
	ts_tree_cursor_delete(&c);
	ts_tree_delete(t);
	return 0;
}
*/
import "C"

import (
	"errors"
	"sync"
	"unsafe"

	_ "github.com/tree-sitter/go-tree-sitter" // links the tree-sitter core the declarations above refer to
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
)

// node mirrors C.FNode; init checks that the layouts agree.
type node struct {
	start, end     uint32
	row, col       uint32
	endRow, endCol uint32
	size           uint32
	sym, field     uint16
	flags          uint8
	_              [3]uint8
}

const (
	flagNamed   = 1
	flagError   = 2
	flagMissing = 4
	flagExtra   = 8
)

func (n *node) named() bool   { return n.flags&flagNamed != 0 }
func (n *node) isError() bool { return n.flags&flagError != 0 }
func (n *node) missing() bool { return n.flags&flagMissing != 0 }

func init() {
	if unsafe.Sizeof(node{}) != C.sizeof_FNode {
		panic("pyscan: node layout does not match C FNode")
	}
}

// resetAllocator resets tree-sitter's allocator to libc once, before the
// first parser exists (not at process start). The official binding routes
// every malloc through a Go trampoline, which costs ~50% of parse time;
// the trampolines end up in libc malloc anyway, so frees by either side
// stay compatible. Nothing here may call ts.SetAllocator again.
var resetAllocator = sync.OnceFunc(func() { C.flat_reset_allocator() })

func language() *C.TSLanguage { return (*C.TSLanguage)(tspython.Language()) }

// flatParser owns one C parser and its node buffer.
type flatParser struct {
	p   *C.TSParser
	buf *C.FNode
	cap C.uint32_t
}

func newFlatParser() (*flatParser, error) {
	resetAllocator()
	p := C.ts_parser_new()
	if p == nil {
		return nil, errors.New("pyscan: cannot create tree-sitter parser")
	}
	if !C.ts_parser_set_language(p, language()) {
		C.ts_parser_delete(p)
		return nil, errors.New("pyscan: tree-sitter rejected the Python grammar (ABI mismatch)")
	}
	return &flatParser{p: p}, nil
}

// parse returns the flattened tree of src. The slice aliases C memory and is
// valid until the next parse or close.
func (f *flatParser) parse(src []byte) ([]node, error) {
	if f.p == nil {
		return nil, errors.New("pyscan: parser is closed")
	}
	if uint64(len(src)) >= 1<<32-1 {
		return nil, errors.New("pyscan: file too large (4 GiB limit)")
	}
	// tree-sitter reads the bytes during the call only and they hold no Go
	// pointers, so the Go slice is passed directly (no copy).
	var ptr *C.char
	if len(src) > 0 {
		ptr = (*C.char)(unsafe.Pointer(&src[0]))
	} else {
		ptr = C.CString("")
		defer C.free(unsafe.Pointer(ptr))
	}
	n := C.flat_parse(f.p, ptr, C.uint32_t(len(src)), &f.buf, &f.cap)
	if n == 0 {
		return nil, errors.New("pyscan: tree-sitter returned no tree")
	}
	return unsafe.Slice((*node)(unsafe.Pointer(f.buf)), int(n)), nil
}

func (f *flatParser) close() {
	if f.p != nil {
		C.ts_parser_delete(f.p)
		f.p = nil
	}
	if f.buf != nil {
		C.free(unsafe.Pointer(f.buf))
		f.buf = nil
		f.cap = 0
	}
}

// symbolID returns the id of a grammar symbol. Called once per name at init:
// the C strings come from Go strings directly, nothing is allocated.
func symbolID(name string, named bool) uint16 {
	nm := C.int(0)
	if named {
		nm = 1
	}
	return uint16(C.flat_symbol(language(), name, nm))
}

func fieldID(name string) uint16 { return uint16(C.flat_field(language(), name)) }

// symbolNames returns the name of every grammar symbol, indexed by id. The
// C strings are static in the grammar.
func symbolNames() []string {
	lang := language()
	n := int(C.ts_language_symbol_count(lang))
	names := make([]string, n)
	for i := range names {
		if s := C.ts_language_symbol_name(lang, C.TSSymbol(i)); s != nil {
			names[i] = C.GoString(s)
		}
	}
	return names
}
