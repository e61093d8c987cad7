#!/bin/sh
# The reference documentation agrees with the program it documents:
#  - linkage(1) has a section `.SS linkage CMD` for exactly the commands that
#    `linkage --help` lists, and a synopsis line for each;
#  - each section names exactly the options (long and short) of
#    `linkage CMD --help`, and the same exit statuses;
#  - docs/format.md's table of top-level keys lists exactly the sections the
#    YAML reader accepts (lib/io/yaml.c, kTopKeys).
# So neither can drift from the other: a new option fails here until the man
# page documents it.
set -u
top_src=${LK_TOP_SRCDIR:?}
top_build=${LK_TOP_BUILDDIR:?}
linkage=$top_build/tools/linkage
man=$top_src/tools/linkage.1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lk-reference.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# Options named in a text: long ones (--name) and short ones (-x) standing
# alone; one per line, sorted.
long_opts() { grep -o -- '--[a-z][a-z0-9-]*' "$1" | sort -u; }
short_opts() { grep -oE -- '(^|[[:space:]"\[])-[a-zA-Z]([[:space:]",]|$)' "$1" |
               grep -oE -- '-[a-zA-Z]' | sort -u; }
# The exit statuses a text states: the digits after "exit status".
statuses() { tr '\n' ' ' < "$1" | grep -ioE 'exit status:.*' |
             grep -oE '(^|[:,] *|, )[0-9]+ ' | grep -oE '[0-9]+' | sort -u; }
same() { # what, file A, file B
  if cmp -s "$2" "$3"; then ok; else
    bad "$1 differ (< --help, > man page):"; diff "$2" "$3" | grep '^[<>]'; fi
}

# The man page with its escapes undone.
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man" > "$tmp/man"

"$linkage" --help > "$tmp/help" 2>&1
sed -n '/^commands:/,/^$/p' "$tmp/help" | awk 'NR > 1 && NF { print $1 }' | sort > "$tmp/cmds"
grep -E '^\.SS linkage ' "$tmp/man" | awk '{ print $3 }' | sort > "$tmp/man_cmds"
[ -s "$tmp/cmds" ] || bad "linkage --help lists no commands"
same "the commands" "$tmp/cmds" "$tmp/man_cmds"

synopsis=$(sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$tmp/man")
for c in $(cat "$tmp/cmds"); do
  if printf '%s\n' "$synopsis" | grep -q "^\.B linkage $c\$"; then ok; else
    bad "the synopsis has no line for linkage $c"; fi
  "$linkage" "$c" --help > "$tmp/h.$c" 2>&1 || bad "linkage $c --help exits non-zero"
  awk -v c="$c" '/^\.S[HS] / { on = ($0 == ".SS linkage " c) ; next } on' "$tmp/man" > "$tmp/m.$c"
  long_opts "$tmp/h.$c" > "$tmp/hl"; long_opts "$tmp/m.$c" > "$tmp/ml"
  short_opts "$tmp/h.$c" > "$tmp/hs"; short_opts "$tmp/m.$c" > "$tmp/ms"
  statuses "$tmp/h.$c" > "$tmp/he"; statuses "$tmp/m.$c" > "$tmp/me"
  [ -s "$tmp/hl" ] || bad "linkage $c --help names no option"
  [ -s "$tmp/he" ] || bad "linkage $c --help states no exit status"
  same "linkage $c: long options" "$tmp/hl" "$tmp/ml"
  same "linkage $c: short options" "$tmp/hs" "$tmp/ms"
  same "linkage $c: exit statuses" "$tmp/he" "$tmp/me"
done

# format.md's top-level table (between "## The file" and the next heading)
# against the reader's table of top-level keys.
sed -n '/^## The file/,/^## [^T]/p' "$top_src/docs/format.md" |
  grep -oE '^\| `[a-z_]+`' | grep -oE '[a-z_]+' | sort > "$tmp/doc_keys"
sed -n '/kTopKeys\[\] = {/,/^};/p' "$top_src/lib/io/yaml.c" |
  grep -oE 'ROW\("[a-z_]+"' | grep -oE '"[a-z_]+"' | tr -d '"' | sort > "$tmp/yaml_keys"
[ -s "$tmp/yaml_keys" ] || bad "no top-level keys found in lib/io/yaml.c"
if cmp -s "$tmp/doc_keys" "$tmp/yaml_keys"; then ok; else
  bad "docs/format.md's top-level keys differ from the reader's (< docs, > reader):"
  diff "$tmp/doc_keys" "$tmp/yaml_keys" | grep '^[<>]'; fi

echo "lk-result: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
