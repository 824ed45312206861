#!/usr/bin/env bash
# Builds each libFuzzer target (swiftc -sanitize=fuzzer,address) and runs it for a fixed time.
#   scripts/fuzz.sh [seconds per target] [target...]
# Prints runs and the result per target; exits non-zero if any target crashed, hung or failed to
# build. Crash inputs are kept in .build/fuzz/artifacts/<target>/.
#
# To add a target: write Fuzz/<Name>.swift with an @_cdecl("LLVMFuzzerTestOneInput") entry point,
# optionally seeds in Fuzz/seeds/<target>/, and add ONE line to TARGETS below:
#   "<target name> <modules it imports, dependencies first, comma-separated> <entry file>"
# A module is a target under Sources/ (all its .swift files), or NAME=path:path for a part of
# a target (files or folders) compiled as its own module, e.g. code inside the executable.
# Modules are built with -enable-testing, so an entry may `@testable import` internal API.
set -uo pipefail
# Swift's own crash backtracer reads the stack in a way AddressSanitizer reports: libFuzzer and
# ASan already print the crash.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."

TARGETS=(
    "journal-reader       WatchCore,Posix,Journal Fuzz/JournalReader.swift"
    "journal-open         WatchCore,Posix,Journal,JournalTestSupport Fuzz/JournalOpen.swift"
    "recordings-nmea      WatchCore,Recordings Fuzz/RecordingsReader.swift"
    "recordings-gpsd-json WatchCore,Recordings Fuzz/RecordingsReader.swift"
    "config-parser        WatchCore,Posix,Recordings,Journal,LightsAndSounds,NMEA0183,Drivers=Sources/Drivers/GPSD/GPSDSettings.swift:Sources/Drivers/Siren/SirenSettings.swift:Sources/Drivers/Ring/SPIRingSettings.swift:Sources/Drivers/GPIOSettings.swift:Sources/Drivers/GPIOLineAddress.swift:Sources/Drivers/GPIORole.swift:Sources/Drivers/Debouncer.swift:Sources/Drivers/PressClassifier.swift:Sources/Drivers/GPIOError.swift:Sources/Drivers/GPIOChipAccess.swift,ApplianceConfig=Sources/Appliance/Config:Sources/Appliance/Network/NetworkKeys.swift Fuzz/ConfigParser.swift"
    "control-protocol     WatchCore,Recordings,ApplianceControl=Sources/Appliance/ControlProtocol.swift:Sources/Appliance/JSON+Surfaces.swift:Fuzz/support/ConsoleLogWords.swift Fuzz/ControlProtocol.swift"
    "gpsd-stream          WatchCore,Recordings,DriversGPSD=Sources/Drivers/GPSD/GPSDMessage.swift:Sources/Drivers/GPSD/GPSDFix.swift Fuzz/GPSDStream.swift"
)

seconds=${1:-20}
shift || true
only=("$@")
build=.build/fuzz
mkdir -p "$build/modules" "$build/bin"
# Sources/CLinux: the C module the room (Posix) imports.
flags=(-sanitize=fuzzer,address -O -g -parse-as-library -swift-version 6 -I Sources/CLinux)
# ld.gold warns about asan's local symbols: harmless noise, filtered.
quiet() { grep -v -e "Cannot export local symbol" -e "^$" || true; }

built_modules=" "
build_module() {   # build_module MODULE[=PATHS] DEPENDENCIES...: the modules before it in its target's list
    local m=${1%%=*} paths=Sources/${1%%=*}
    [[ $1 == *=* ]] && paths=${1#*=}
    shift
    [[ $built_modules == *" $m "* ]] && return 0
    local out=$build/modules/$m.o
    local sources deps=()
    mapfile -t sources < <(find ${paths//:/ } -name '*.swift' | sort)
    local d
    for d in "$@"; do deps+=("$build/modules/${d%%=*}.swiftmodule"); done
    # Rebuild when a source, or a module it was built against, is newer than the object: a
    # module built against an older WatchCore lays its structs out the old way, and the fuzzer
    # then reports the mismatch as a crash (or hides one).
    if [ ! -f "$out" ] || [ -n "$(find "${sources[@]}" "${deps[@]}" -newer "$out" 2>/dev/null | head -1)" ]; then
        echo "fuzz: building module $m"
        swiftc "${flags[@]}" -enable-testing -module-name "$m" -wmo -c "${sources[@]}" \
            -emit-module -emit-module-path "$build/modules/$m.swiftmodule" -I "$build/modules" -o "$out" 2>&1 | quiet
        [ "${PIPESTATUS[0]}" -eq 0 ] || return 1
    fi
    built_modules+="$m "
}

# The targets run side by side, one per core (FUZZ_JOBS, default nproc): each is one libFuzzer
# process on one core for its full time, as when they ran one after another. While a target is
# still being built, one core is kept for the compiler.
jobs_max=${FUZZ_JOBS:-$(nproc)}
[ "$jobs_max" -ge 1 ] 2>/dev/null || jobs_max=1
trap 'kill $(jobs -rp) 2>/dev/null' EXIT
throttle() {   # waits until fewer than jobs_max runs are going
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
}
run_target() {   # run_target NAME BIN: the verdict goes to $build/NAME.verdict
    local name=$1 bin=$2 corpus=$build/corpus/$1 artifacts=$build/artifacts/$1 log=$build/$1.log
    local seeds=() rc runs cov
    mkdir -p "$corpus" "$artifacts"
    [ -d "Fuzz/seeds/$name" ] && seeds=("Fuzz/seeds/$name")
    "$bin" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1
    rc=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
    if [ $rc -eq 0 ]; then
        echo "$name: ${runs:-?} runs in ${seconds}s, coverage ${cov:-?} edges, corpus $(ls "$corpus" | wc -l) inputs, no crash, no hang" >"$build/$name.verdict"
    else
        { echo "$name: FAILED (exit $rc) after ${runs:-?} runs; see $log and $artifacts/"
          grep -m5 -E "ERROR|Fatal error|SUMMARY|deadly signal|timeout" "$log" | sed 's/^/    /'
        } >"$build/$name.verdict"
    fi
}

failures=0
summary=()
ran=()
for line in "${TARGETS[@]}"; do
    read -r name modules entry <<<"$line"
    if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then continue; fi
    throttle
    objects=()
    ok=1
    before=()
    for m in ${modules//,/ }; do
        if ! build_module "$m" "${before[@]}"; then ok=0; break; fi
        objects+=("$build/modules/${m%%=*}.o")
        before+=("$m")
    done
    bin=$build/bin/$name
    if [ $ok -eq 1 ]; then
        swiftc "${flags[@]}" -module-name "fuzz_${name//-/_}" -I "$build/modules" "$entry" "${objects[@]}" -lm -o "$bin" 2>&1 | quiet
        [ "${PIPESTATUS[0]}" -eq 0 ] || ok=0
    fi
    if [ $ok -eq 0 ]; then
        echo "$name: FAILED to build" >"$build/$name.verdict"
        ran+=("$name")
        continue
    fi
    rm -f "$build/$name.verdict"
    echo "fuzz: running $name for ${seconds}s"
    run_target "$name" "$bin" &
    ran+=("$name")
done
wait
for name in "${ran[@]}"; do
    if [ ! -s "$build/$name.verdict" ]; then
        summary+=("$name: FAILED: its run left no verdict")
        failures=$((failures + 1))
        continue
    fi
    verdict=$(head -1 "$build/$name.verdict")
    summary+=("$verdict")
    [[ $verdict == *"no crash, no hang" ]] || failures=$((failures + 1))
    tail -n +2 "$build/$name.verdict"
done

echo "fuzz summary:"
for s in "${summary[@]}"; do echo "  $s"; done
if [ ${#summary[@]} -eq 0 ]; then echo "fuzz: no target matched"; exit 1; fi
[ $failures -eq 0 ] && echo "fuzz: ${#summary[@]} targets passed" || echo "fuzz: $failures of ${#summary[@]} targets FAILED"
exit $((failures > 0))
