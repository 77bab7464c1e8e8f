#!/usr/bin/env python3
"""Golden tables for --runner templates, from CPython itself.

run_panel.py expands a `--runner FAMILY=TEMPLATE` as

    [token.format(prompt=PROMPT, system=SYSTEM) for token in shlex.split(TEMPLATE)]

nullius ports shlex.split (internal/shlex) and str.format (internal/pyformat);
these tables pin both, and the composition, byte for byte. Run from the
repository root with Python 3.11:

    python3 scripts/runner_template_golden.py

It rewrites internal/shlex/testdata/split.json,
internal/pyformat/testdata/format.json and
pipeline/match/testdata/runner_templates.json. The cases are a hand-written
table plus a seeded random mix of the characters that matter, so a re-run
gives the same files.
"""
import json
import random
import shlex
import sys

PROMPT = "/work/it's a match/panel/judge_prompt.md"
SYSTEM = "/work/it's a match/panel/judge_system.md"

SPLIT_CASES = [
    "", "  ", "a", "a b", " a  b ", "a\tb\nc\rd", "a\x0bb", "a\u00a0b", "a#b c",
    "'a b'", '"a b"', "'a\\b'", '"a\\b"', '"a\\"b"', '"a\\\\b"', '"a\\$b"', '"a\\`b"',
    "a\\ b", "a\\\nb", '"a\\\nb"', "\\\"", "\\'", "\\\\", "a\\", '"a\\', "'abc", '"abc',
    "x''y", "''", '""', "a '' b", 'a "" b', "a'b\"c'd", "'a'\"b\"c", "é 'ü x' \"ß\\ä\"",
    "fake-judge --mode vote:a --prompt {prompt}", "sh -c 'cat {prompt}'",
    "python3 run.py --prompt \"{prompt}\" --system '{system}'",
    "a\\ \\ b", "\\x", "\\\n", "'\\''", "\"'\"", "'\"'", "$(touch x) `y` ; z | w > v",
]

FORMAT_CASES = [
    "", "plain", "{prompt}", "{system}", "--prompt={prompt}", "{prompt}{system}", "{{", "}}",
    "{{prompt}}", "a{{b}}c", "{{{prompt}}}", "{", "}", "a{", "a}", "{}", "{0}", "{1}", "{x}",
    "{ prompt}", "{prompt }", "{Prompt}", "{prompt", "{prompt!r}", "{prompt!s}", "{prompt!a}",
    "{prompt!x}", "{prompt!}", "{prompt!r", "{prompt!rr}", "{prompt!r:>60}", "{prompt!", "{!r}",
    "{:}", "{prompt:}", "{prompt:s}", "{prompt:d}", "{prompt:>60}", "{prompt:<60}",
    "{prompt:^61}", "{prompt:*^61}", "{prompt:=60}", "{prompt:+}", "{prompt:-}", "{prompt: }",
    "{prompt:z}", "{prompt:#}", "{prompt:0}", "{prompt:060}", "{prompt:0<60}", "{prompt:.5}",
    "{prompt:.0}", "{prompt:10.5}", "{prompt:.}", "{prompt:,}", "{prompt:_}", "{prompt:,_}",
    "{prompt:_,}", "{prompt:ab}", "{prompt:\u00e9}", "{prompt:\x01}", "{prompt!\u00e9}",
    "{prompt!\x01}", "{prompt:{system}}", "{prompt:{{}}}", "{prompt:{}}", "{prompt:{x}}",
    "{prompt:{prompt:{system}}}", "{prompt[0]}", "{prompt[5]}", "{prompt[-1]}", "{prompt[x]}",
    "{prompt[]}", "{prompt[0][0]}", "{prompt[0]x}", "{prompt[}", "{prompt[0}", "{prompt]}",
    "{prompt[999]}", "{prompt[99999999999999999999]}", "{99999999999999999999}",
    "{prompt:99999999999999999999}", "{prompt.x}", "{prompt.a'b}", "{prompt.}", "{prompt..x}",
    "{prompt.99999999999999999999}", "{\u0663}", "{prompt:\u0663\u0660}", "{prompt[\u0661]}",
    "{prompt:{system}{system}}", "{x:{}}", "{x[0]}", "{0[}", "{[}", "{prompt}{}", "{}{0}",
    "{prompt{system}}", "{prompt:{system}", "{prompt:x<{}}", "\u00e9{prompt}\u00fc",
]

# What the random mix is made of: every piece str.format and shlex care about.
FRAGMENTS = ["{", "}", "{{", "}}", "prompt", "system", "{prompt}", "{system}", "!r", "!a", "!s",
             ":", ">", "<", "^", "=", "0", "5", ".", "[0]", "[", "]", "x", " ", "  ", "\t", "\n",
             "'", '"', "\\", "\\\\", "\\\"", "é", "--flag=", "$", "#", ","]


def split_row(s):
    try:
        return {"in": s, "words": shlex.split(s)}
    except ValueError as e:
        return {"in": s, "error": str(e)}


def format_row(t):
    try:
        return {"in": t, "out": t.format(prompt=PROMPT, system=SYSTEM)}
    except Exception as e:  # noqa: BLE001 - every class is recorded
        if type(e).__name__ == "AttributeError" and not str(e).startswith("'str' object has no attribute"):
            raise
        return {"in": t, "error_type": type(e).__name__, "error": str(e)}


def template_row(t):
    """What run_panel.py does with one --runner template."""
    try:
        tokens = shlex.split(t)
    except ValueError as e:
        # runner_command_signature splits first and does not catch this:
        # run_panel.py stops with a traceback before any seat runs.
        return {"template": t, "split_error": str(e)}
    try:
        return {"template": t, "argv": [tok.format(prompt=PROMPT, system=SYSTEM) for tok in tokens]}
    except (KeyError, IndexError, ValueError) as e:
        # run_family records "invocation error: <exc>" and retries.
        return {"template": t, "invocation_error": str(e)}
    except Exception as e:  # noqa: BLE001
        # AttributeError, TypeError: not caught by run_family; the run dies.
        return {"template": t, "uncaught": type(e).__name__, "error": str(e)}


def has_method_attr(s):
    # '{prompt.upper}' renders a bound method's repr with an address in
    # Python: not reproducible, and refused by nullius; keep such cases out.
    for name in dir(str):
        if "." + name in s:
            return True
    return False


def main():
    rnd = random.Random(17)
    mixed = []
    while len(mixed) < 600:
        s = "".join(rnd.choice(FRAGMENTS) for _ in range(rnd.randint(1, 9)))
        if not has_method_attr(s):
            mixed.append(s)
    split = [split_row(s) for s in SPLIT_CASES + mixed]
    fmt = [format_row(t) for t in FORMAT_CASES + [m for m in mixed if "\n" not in m]]
    tmpl = [template_row(t) for t in SPLIT_CASES + FORMAT_CASES + mixed]
    meta = {"python": sys.version.split()[0], "prompt": PROMPT, "system": SYSTEM}
    for path, rows in [("internal/shlex/testdata/split.json", split),
                       ("internal/pyformat/testdata/format.json", fmt),
                       ("pipeline/match/testdata/runner_templates.json", tmpl)]:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"generated_by": "scripts/runner_template_golden.py", **meta, "cases": rows},
                      f, ensure_ascii=True, indent=1)
            f.write("\n")
        print("wrote %s (%d cases)" % (path, len(rows)))


if __name__ == "__main__":
    main()
