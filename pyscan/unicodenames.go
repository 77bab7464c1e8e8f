package pyscan

import "strings"

// lookupUnicodeName resolves the name of a \N{...} escape. Python knows the
// whole Unicode name database; nullius (no x/text tables for names) knows:
// LATIN SMALL/CAPITAL LETTER A-Z, GREEK SMALL/CAPITAL LETTER ALPHA-OMEGA,
// DIGIT ZERO-NINE, the ASCII control and space names Python accepts, and the
// punctuation, quotation and math signs of unicodeNames below. Matching is
// case-insensitive, as in Python. An unknown name is a syntax error, as in
// Python, with a message that says nullius's table is a subset.
func lookupUnicodeName(name string) (rune, bool) {
	n := strings.ToUpper(strings.TrimSpace(name))
	if r, ok := unicodeNames[n]; ok {
		return r, true
	}
	for _, p := range []struct {
		prefix string
		first  rune
		letter []string
	}{
		{"LATIN SMALL LETTER ", 'a', latin},
		{"LATIN CAPITAL LETTER ", 'A', latin},
		{"GREEK SMALL LETTER ", 'α', greek},
		{"GREEK CAPITAL LETTER ", 'Α', greek},
		{"DIGIT ", '0', digits},
	} {
		rest, ok := strings.CutPrefix(n, p.prefix)
		if !ok {
			continue
		}
		for i, l := range p.letter {
			if l == rest && l != "" {
				return p.first + rune(i), true
			}
		}
	}
	return 0, false
}

var (
	latin  = strings.Fields("A B C D E F G H I J K L M N O P Q R S T U V W X Y Z")
	digits = strings.Fields("ZERO ONE TWO THREE FOUR FIVE SIX SEVEN EIGHT NINE")
	// Greek letters in code point order from U+03B1 / U+0391; the slot of
	// final sigma (U+03C2, which has no capital) is spelled out separately.
	greek = []string{"ALPHA", "BETA", "GAMMA", "DELTA", "EPSILON", "ZETA", "ETA", "THETA",
		"IOTA", "KAPPA", "LAMDA", "MU", "NU", "XI", "OMICRON", "PI", "RHO", "", "SIGMA",
		"TAU", "UPSILON", "PHI", "CHI", "PSI", "OMEGA"}
)

var unicodeNames = map[string]rune{
	"GREEK SMALL LETTER FINAL SIGMA": 'ς',
	"NULL":                           0,
	"CHARACTER TABULATION":           '\t',
	"TAB":                            '\t',
	"LINE FEED":                      '\n',
	"LF":                             '\n',
	"NEW LINE":                       '\n',
	"CARRIAGE RETURN":                '\r',
	"CR":                             '\r',
	"ESCAPE":                         0x1b,
	"SPACE":                          ' ',
	"EXCLAMATION MARK":               '!',
	"QUOTATION MARK":                 '"',
	"NUMBER SIGN":                    '#',
	"DOLLAR SIGN":                    '$',
	"PERCENT SIGN":                   '%',
	"AMPERSAND":                      '&',
	"APOSTROPHE":                     '\'',
	"LEFT PARENTHESIS":               '(',
	"RIGHT PARENTHESIS":              ')',
	"ASTERISK":                       '*',
	"PLUS SIGN":                      '+',
	"COMMA":                          ',',
	"HYPHEN-MINUS":                   '-',
	"FULL STOP":                      '.',
	"SOLIDUS":                        '/',
	"COLON":                          ':',
	"SEMICOLON":                      ';',
	"LESS-THAN SIGN":                 '<',
	"EQUALS SIGN":                    '=',
	"GREATER-THAN SIGN":              '>',
	"QUESTION MARK":                  '?',
	"COMMERCIAL AT":                  '@',
	"LEFT SQUARE BRACKET":            '[',
	"REVERSE SOLIDUS":                '\\',
	"RIGHT SQUARE BRACKET":           ']',
	"CIRCUMFLEX ACCENT":              '^',
	"LOW LINE":                       '_',
	"GRAVE ACCENT":                   '`',
	"LEFT CURLY BRACKET":             '{',
	"VERTICAL LINE":                  '|',
	"RIGHT CURLY BRACKET":            '}',
	"TILDE":                          '~',
	"NO-BREAK SPACE":                 0xa0,
	"NBSP":                           0xa0,
	"SECTION SIGN":                   '§',
	"COPYRIGHT SIGN":                 '©',
	"REGISTERED SIGN":                '®',
	"DEGREE SIGN":                    '°',
	"PLUS-MINUS SIGN":                '±',
	"MICRO SIGN":                     'µ',
	"PILCROW SIGN":                   '¶',
	"MIDDLE DOT":                     '·',
	"MULTIPLICATION SIGN":            '×',
	"DIVISION SIGN":                  '÷',
	"LEFT-POINTING DOUBLE ANGLE QUOTATION MARK":  '«',
	"RIGHT-POINTING DOUBLE ANGLE QUOTATION MARK": '»',
	"EN SPACE":                              0x2002,
	"EM SPACE":                              0x2003,
	"THIN SPACE":                            0x2009,
	"ZERO WIDTH SPACE":                      0x200b,
	"NON-BREAKING HYPHEN":                   0x2011,
	"HYPHEN":                                0x2010,
	"FIGURE DASH":                           0x2012,
	"EN DASH":                               0x2013,
	"EM DASH":                               0x2014,
	"LEFT SINGLE QUOTATION MARK":            0x2018,
	"RIGHT SINGLE QUOTATION MARK":           0x2019,
	"LEFT DOUBLE QUOTATION MARK":            0x201c,
	"RIGHT DOUBLE QUOTATION MARK":           0x201d,
	"DAGGER":                                0x2020,
	"DOUBLE DAGGER":                         0x2021,
	"BULLET":                                0x2022,
	"HORIZONTAL ELLIPSIS":                   0x2026,
	"PER MILLE SIGN":                        0x2030,
	"PRIME":                                 0x2032,
	"EURO SIGN":                             0x20ac,
	"LEFTWARDS ARROW":                       0x2190,
	"UPWARDS ARROW":                         0x2191,
	"RIGHTWARDS ARROW":                      0x2192,
	"DOWNWARDS ARROW":                       0x2193,
	"LEFT RIGHT ARROW":                      0x2194,
	"RIGHTWARDS DOUBLE ARROW":               0x21d2,
	"LEFT RIGHT DOUBLE ARROW":               0x21d4,
	"FOR ALL":                               0x2200,
	"PARTIAL DIFFERENTIAL":                  0x2202,
	"THERE EXISTS":                          0x2203,
	"EMPTY SET":                             0x2205,
	"NABLA":                                 0x2207,
	"ELEMENT OF":                            0x2208,
	"NOT AN ELEMENT OF":                     0x2209,
	"N-ARY PRODUCT":                         0x220f,
	"N-ARY SUMMATION":                       0x2211,
	"MINUS SIGN":                            0x2212,
	"SQUARE ROOT":                           0x221a,
	"PROPORTIONAL TO":                       0x221d,
	"INFINITY":                              0x221e,
	"LOGICAL AND":                           0x2227,
	"LOGICAL OR":                            0x2228,
	"INTERSECTION":                          0x2229,
	"UNION":                                 0x222a,
	"INTEGRAL":                              0x222b,
	"TILDE OPERATOR":                        0x223c,
	"ALMOST EQUAL TO":                       0x2248,
	"NOT EQUAL TO":                          0x2260,
	"IDENTICAL TO":                          0x2261,
	"LESS-THAN OR EQUAL TO":                 0x2264,
	"GREATER-THAN OR EQUAL TO":              0x2265,
	"MUCH LESS-THAN":                        0x226a,
	"MUCH GREATER-THAN":                     0x226b,
	"SUBSET OF":                             0x2282,
	"SUPERSET OF":                           0x2283,
	"CHECK MARK":                            0x2713,
	"HEAVY CHECK MARK":                      0x2714,
	"BALLOT X":                              0x2717,
	"WARNING SIGN":                          0x26a0,
	"BLACK STAR":                            0x2605,
	"WHITE STAR":                            0x2606,
	"ZERO WIDTH NON-JOINER":                 0x200c,
	"ZERO WIDTH JOINER":                     0x200d,
	"BYTE ORDER MARK":                       0xfeff,
	"ZERO WIDTH NO-BREAK SPACE":             0xfeff,
	"REPLACEMENT CHARACTER":                 0xfffd,
	"SNOWMAN":                               0x2603,
	"LATIN SMALL LETTER SHARP S":            'ß',
	"LATIN SMALL LETTER E WITH ACUTE":       'é',
	"LATIN SMALL LETTER E WITH GRAVE":       'è',
	"LATIN SMALL LETTER A WITH DIAERESIS":   'ä',
	"LATIN SMALL LETTER O WITH DIAERESIS":   'ö',
	"LATIN SMALL LETTER U WITH DIAERESIS":   'ü',
	"LATIN SMALL LETTER N WITH TILDE":       'ñ',
	"LATIN SMALL LETTER C WITH CEDILLA":     'ç',
	"LATIN CAPITAL LETTER A WITH DIAERESIS": 'Ä',
	"LATIN CAPITAL LETTER O WITH DIAERESIS": 'Ö',
	"LATIN CAPITAL LETTER U WITH DIAERESIS": 'Ü',
	"LATIN CAPITAL LETTER E WITH ACUTE":     'É',
	"ANGSTROM SIGN":                         0x212b,
	"PLANCK CONSTANT OVER TWO PI":           0x210f,
	"SUPERSCRIPT TWO":                       '²',
	"SUPERSCRIPT THREE":                     '³',
	"VULGAR FRACTION ONE HALF":              '½',
	"VULGAR FRACTION ONE QUARTER":           '¼',
}
