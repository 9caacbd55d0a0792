#!/usr/bin/env bash
# Embedding tests: the Laminar core outside Node (npm run test:embed).
#
#  1. wasmtime (Python): test/embed/wasmtime_test.py on build/laminar-simd.wasm
#     and build/laminar-scalar.wasm, in a venv at .venv-embed with the wasmtime
#     wheel from /opt/pypi-more/files (override: WASMTIME_WHEEL=path.whl).
#     With a C compiler, it also builds the native reference bench
#     (bench/native/build.mjs) and checks that its checksums agree.
#  2. wasm2c (wabt 1.0.32, no SIMD): build/laminar-scalar.wasm translated to C,
#     compiled with test/embed/wasm2c_main.c, bench/native/ziggurat.c (the
#     host's share of the probe action) and wabt's runtime, and run.
#     Installs the Debian package wabt when wasm2c is missing (needs root).
#
#  3. Other JavaScript runtimes: Bun (JavaScriptCore) and Deno (a newer V8),
#     pinned versions installed from the npm registry into test/embed/out/
#     (or BUN=path DENO=path, used whatever their versions): skipped, with
#     the reason, when they cannot be installed. test/embed/runtimes.mjs runs
#     the zone scripts on both builds and `laminar sim` on one and two
#     threads under each, against Node's.
#
# The harnesses also drive a Zone engine through test/embed/zone-script.txt,
# zone-script-mem.txt (the memory model) and zone-script-airlock.txt (and
# Airlock, the host its gateway side) and compare the transcripts with
# Node's, the .expected files beside them.
#
# Prints each harness's report, then one plain line `N passed, N failed`
# (all groups together); exits 1 on any failure.
set -u
cd "$(dirname "$0")/.." || exit 1

OUT=test/embed/out
VENV=.venv-embed
PASSED=0
FAILED=0

say() { echo "test-embed: $*"; }

# Adds a harness's `RESULT <passed> <failed>` line to the totals; a harness
# that died without one counts as one failure.
tally() {
  local log=$1 name=$2 line
  line=$(grep -E '^RESULT [0-9]+ [0-9]+$' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    say "$name ended without a result (crashed?)"
    FAILED=$((FAILED + 1))
    return
  fi
  set -- $line
  PASSED=$((PASSED + $2))
  FAILED=$((FAILED + $3))
}

finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
  exit $?
}

mkdir -p "$OUT"
for f in build/laminar-simd.wasm build/laminar-scalar.wasm; do
  if [ ! -f "$f" ]; then
    say "$f is missing; run npm run build:wasm (npm ci does it)"
    FAILED=$((FAILED + 1))
    finish
  fi
done

# ---------------------------------------------------------------- wasmtime
wasmtime_setup() {
  local py
  py=$(command -v python3 || command -v python) || { say "no python3 found; cannot run the wasmtime harness"; return 1; }
  if ! "$VENV/bin/python" -c 'import wasmtime' >/dev/null 2>&1; then
    local wheel=${WASMTIME_WHEEL:-}
    if [ -z "$wheel" ]; then
      wheel=$(ls /opt/pypi-more/files/wasmtime-*-py3-none-*.whl 2>/dev/null | sort -V | tail -n 1)
    fi
    if [ -n "${WASMTIME_WHEEL:-}" ] && [ ! -f "$wheel" ]; then
      say "WASMTIME_WHEEL=$wheel does not exist"
      return 1
    fi
    if [ -z "$wheel" ]; then
      say "wasmtime wheel not found (looked for /opt/pypi-more/files/wasmtime-*-py3-none-*.whl; set WASMTIME_WHEEL)"
      return 1
    fi
    [ -x "$VENV/bin/python" ] || "$py" -m venv "$VENV" >"$OUT/venv.log" 2>&1 ||
      { say "could not create the venv $VENV ($(tail -n 1 "$OUT/venv.log"))"; return 1; }
    "$VENV/bin/python" -m pip install -q --no-index "$wheel" >"$OUT/pip.log" 2>&1 ||
      { say "pip could not install $wheel ($(tail -n 1 "$OUT/pip.log"))"; return 1; }
  fi
  return 0
}

NATIVE_ARGS=()
if node bench/native/build.mjs >"$OUT/native-build.log" 2>&1; then
  for exe in bench/native/bin/bench-native bench/native/bin/bench-native-128; do
    [ -x "$exe" ] && NATIVE_ARGS+=(--native "$exe")
  done
else
  say "bench/native/build.mjs failed:"
  cat "$OUT/native-build.log"
  FAILED=$((FAILED + 1))
fi

if wasmtime_setup; then
  for wasm in build/laminar-simd.wasm build/laminar-scalar.wasm; do
    log="$OUT/wasmtime-$(basename "$wasm" .wasm).log"
    "$VENV/bin/python" test/embed/wasmtime_test.py --wasm "$wasm" "${NATIVE_ARGS[@]}" >"$log" 2>&1
    grep -v '^RESULT ' "$log"
    tally "$log" "wasmtime harness ($wasm)"
  done
else
  FAILED=$((FAILED + 1))
fi

# ------------------------------------------------------------------ wasm2c
wasm2c_setup() {
  if ! command -v wasm2c >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      say "wasm2c not found and cannot install it here (needs root and apt-get): install wabt 1.0.32"
      return 1
    fi
    say "installing wabt (wasm2c) with apt-get"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wabt; } >"$OUT/apt.log" 2>&1; then
      say "apt-get install wabt failed ($(tail -n 1 "$OUT/apt.log"))"
      return 1
    fi
  fi
  local v
  v=$(wasm2c --version 2>/dev/null)
  [ "$v" = "1.0.32" ] || say "warning: wasm2c $v; this harness is written for the 1.0.32 API"
  RT=""
  for d in /usr/share/wabt/wasm2c /usr/src/wasm2c $(dpkg -L wabt 2>/dev/null | grep '/wasm-rt-impl\.c$' | xargs -r -n1 dirname); do
    if [ -f "$d/wasm-rt-impl.c" ]; then RT=$d; break; fi
  done
  [ -n "$RT" ] || { say "wabt's runtime source wasm-rt-impl.c not found (dpkg -L wabt)"; return 1; }
  CC=${CC:-$(command -v gcc || command -v cc)} || true
  [ -n "$CC" ] || { say "no C compiler (gcc or cc) for the wasm2c harness"; return 1; }
  return 0
}

if wasm2c_setup; then
  log="$OUT/wasm2c.log"
  if ! wasm2c build/laminar-scalar.wasm -n laminar -o "$OUT/laminar.c" >"$log" 2>&1; then
    say "wasm2c could not translate build/laminar-scalar.wasm:"
    cat "$log"
    FAILED=$((FAILED + 1))
  elif ! { "$CC" -O1 -ffp-contract=off -w -I "$OUT" -I "$RT" -c "$OUT/laminar.c" -o "$OUT/laminar.o" &&
           "$CC" -O1 -ffp-contract=off -I "$OUT" -I "$RT" -c "$RT/wasm-rt-impl.c" -o "$OUT/wasm-rt-impl.o" &&
           "$CC" -O1 -ffp-contract=off -Wall -I "$OUT" -I "$RT" -c test/embed/wasm2c_main.c -o "$OUT/wasm2c_main.o" &&
           "$CC" -O1 -ffp-contract=off -Wall -c bench/native/ziggurat.c -o "$OUT/ziggurat.o" &&
           "$CC" -o "$OUT/wasm2c_test" "$OUT/wasm2c_main.o" "$OUT/ziggurat.o" "$OUT/laminar.o" "$OUT/wasm-rt-impl.o" -lm; } >"$log" 2>&1; then
    say "compiling the wasm2c harness failed:"
    cat "$log"
    FAILED=$((FAILED + 1))
  else
    "$OUT/wasm2c_test" >"$log" 2>&1
    grep -v '^RESULT ' "$log"
    tally "$log" "wasm2c harness"
  fi
else
  FAILED=$((FAILED + 1))
fi

# ------------------------------------------------- other JavaScript runtimes
BUN_VERSION=1.4.5
DENO_VERSION=2.9.6
RUNTIMES="$OUT/runtimes"
runtimes_setup() {
  # given paths are used as they are (whatever their versions)
  if [ -n "${BUN:-}" ] || [ -n "${DENO:-}" ]; then
    [ -n "${BUN:-}" ] && [ -x "$BUN" ] && [ -n "${DENO:-}" ] && [ -x "$DENO" ] && return 0
    say "BUN and DENO must both name executables (BUN=${BUN:-unset}, DENO=${DENO:-unset})"
    FAILED=$((FAILED + 1))
    return 1
  fi
  BUN=$RUNTIMES/node_modules/.bin/bun
  DENO=$RUNTIMES/node_modules/.bin/deno
  if [ -x "$BUN" ] && [ -x "$DENO" ] && "$BUN" --version 2>/dev/null | grep -qx "$BUN_VERSION" \
    && "$DENO" --version 2>/dev/null | head -n 1 | grep -q "^deno $DENO_VERSION "; then
    return 0
  fi
  say "installing bun@$BUN_VERSION and deno@$DENO_VERSION from the npm registry into $RUNTIMES"
  mkdir -p "$RUNTIMES"
  [ -f "$RUNTIMES/package.json" ] || echo '{ "private": true }' >"$RUNTIMES/package.json"
  if ! npm install --prefix "$RUNTIMES" --no-audit --no-fund --no-save "bun@$BUN_VERSION" "deno@$DENO_VERSION" >"$OUT/runtimes-npm.log" 2>&1; then
    say "npm could not install bun and deno ($(tail -n 1 "$OUT/runtimes-npm.log")): the other-runtime checks are skipped"
    return 1
  fi
  BUN=$RUNTIMES/node_modules/.bin/bun
  DENO=$RUNTIMES/node_modules/.bin/deno
  [ -x "$BUN" ] && [ -x "$DENO" ] || { say "bun or deno missing after npm install (see $OUT/runtimes-npm.log): skipped"; return 1; }
}

if [ ! -f dist/src/cli/main.js ]; then
  say "dist/src/cli/main.js is missing (npm run build): the other-runtime checks cannot run"
  FAILED=$((FAILED + 1))
elif runtimes_setup; then
  log="$OUT/runtimes.log"
  node test/embed/runtimes.mjs --bun "$BUN" --deno "$DENO" >"$log" 2>&1
  grep -v '^RESULT ' "$log"
  tally "$log" "other runtimes (Bun, Deno)"
fi

finish
