#!/bin/sh
# tools/deps.sh - make sure the host has what building, booting and testing
# hugezero needs, installing only the missing Debian packages.
#
#   tools/deps.sh          check; install what is missing (apt-get, sudo if not root)
#   tools/deps.sh --check  check only; exit 1 if anything is missing
#   tools/deps.sh --test   also the packages only `make test` needs (LAVA, Chromium, fuzzing)
#   tools/deps.sh --fuzz   also what `make fuzz` needs (clang and its runtimes)
#
# Prints one line when everything is present ("deps: all present") and says
# exactly what it installs ("deps: installing: ..."). On a system without
# dpkg/apt-get it prints the Debian package list and the missing commands, and
# fails only if a required command is missing. Non-interactive (CI-safe).

set -u
set -f # package and command lists are split on spaces, never globbed

# Debian package -> what it provides (for the non-Debian message).
# python3-yaml: tools/hzlib/lava.py reads LAVA job logs with PyYAML.
PACKAGES="qemu-system-x86 grub-pc-bin grub-efi-amd64-bin grub-common xorriso mtools nasm ovmf libcmocka-dev gnuplot-nox clang-format python3-yaml"
# Commands the build and the tests run. gnuplot is optional (plots are skipped
# without it); the rest are required.
REQUIRED_CMDS="python3 gcc make nasm ld qemu-system-x86_64 grub-mkrescue grub-mknetdir xorriso mformat clang-format"
OPTIONAL_CMDS="gnuplot"
# Only the tests need these (--test, as `make test` passes): the LAVA tests
# (tests/tools/test_lava.py) run the real dispatcher, lava-run, on QEMU jobs
# and validate the PXE job, whose tftp deploy looks for in.tftpd and
# /etc/default/tftpd-hpa. lava-dispatcher brings about 150 packages (50 MB),
# so `make run` and `make bench` do not install it. chromium: the browser
# test of `hz report` (tests/tools/test_report_browser.py) opens report.html
# in headless Chromium. Without them (non-Debian hosts) those tests are
# skipped, saying why. flake8 and mypy: `make lint` (part of `make test`)
# checks the Python of tools/ and tests/tools with them (setup.cfg).
TEST_PACKAGES="lava-dispatcher tftpd-hpa chromium flake8 mypy"
TEST_CMDS="lava-run in.tftpd chromium flake8 mypy"
# The fuzz harnesses (fuzz/: `make fuzz` passes --fuzz, --test implies it):
# clang, and libclang-rt-14-dev for the libFuzzer, ASan and UBSan runtimes.
FUZZ_PACKAGES="clang libclang-rt-14-dev"
FUZZ_CMDS="clang"

check_only=0 fuzz=0
for arg in "$@"; do
    case "$arg" in
    --check) check_only=1 ;;
    --test)
        PACKAGES="$PACKAGES $TEST_PACKAGES"
        OPTIONAL_CMDS="$OPTIONAL_CMDS $TEST_CMDS"
        fuzz=1
        ;;
    --fuzz) fuzz=1 ;;
    *)
        echo "usage: tools/deps.sh [--check] [--test] [--fuzz]" >&2
        exit 2
        ;;
    esac
done

if [ "$fuzz" = 1 ]; then
    PACKAGES="$PACKAGES $FUZZ_PACKAGES"
    REQUIRED_CMDS="$REQUIRED_CMDS $FUZZ_CMDS"
fi

missing_cmds() {
    out=""
    for c in "$@"; do
        command -v "$c" >/dev/null 2>&1 || out="$out $c"
    done
    echo "${out# }"
}

# shellcheck disable=SC2086 # the lists are split on purpose (set -f above)
if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    req=$(missing_cmds $REQUIRED_CMDS)
    opt=$(missing_cmds $OPTIONAL_CMDS)
    echo "deps: not a Debian system (no dpkg-query/apt-get); install the equivalents of:"
    echo "deps:   $PACKAGES"
    [ -n "$opt" ] && echo "deps: optional commands missing (plots or LAVA tests are skipped): $opt"
    if [ -n "$req" ]; then
        echo "deps: required commands missing: $req" >&2
        exit 1
    fi
    echo "deps: required commands present"
    exit 0
fi

# One dpkg-query call for every package; a package that is unknown or not
# fully installed is missing. python3, gcc and make are checked as commands so
# any provider (e.g. python3 from /usr/local) counts.
# shellcheck disable=SC2086
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PACKAGES 2>/dev/null |
    awk '$2 == "installed" { printf " %s", $1 }')
need=""
for p in $PACKAGES; do
    case "$installed " in
    *" $p "*) ;;
    *) need="$need $p" ;;
    esac
done
for c in python3 gcc make; do
    command -v "$c" >/dev/null 2>&1 || need="$need $c"
done
need="${need# }"

if [ -z "$need" ]; then
    echo "deps: all present"
    exit 0
fi

if [ "$check_only" = 1 ]; then
    echo "deps: missing: $need" >&2
    exit 1
fi

echo "deps: installing: $need"
SUDO=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        # Ask for a password only when someone can type it.
        if [ -t 0 ]; then SUDO="sudo"; else SUDO="sudo -n"; fi
    else
        echo "deps: not root and no sudo; run as root: apt-get install $need" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -qq update >/dev/null ||
    { echo "deps: apt-get update failed" >&2; exit 1; }
# shellcheck disable=SC2086 # word splitting of the package list is intended
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get -qq -y --no-install-recommends install $need >/dev/null ||
    { echo "deps: apt-get install failed: $need" >&2; exit 1; }
echo "deps: installed: $need"
