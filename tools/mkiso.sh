#!/bin/sh
# tools/mkiso.sh OUT.iso GRUB.CFG - hybrid BIOS+UEFI ISO of build/hugezero.elf
# (override with ELF=...) made by grub-mkrescue/xorriso, then checked: the
# El Torito catalogue must hold a BIOS and a UEFI boot image. MODULES="FILE..."
# copies boot modules to /boot/modules/ for the grub.cfg's module2 lines.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 OUT.iso GRUB.CFG" >&2; exit 2; }
# OUT and GRUB.CFG are relative to the caller's directory; the default
# kernel is the tree's, wherever the script is run from.
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1 cfg=$2 elf=${ELF:-$root/build/hugezero.elf}
[ -f "$elf" ] || { echo "mkiso: kernel $elf not found (run make, or set ELF=)" >&2; exit 1; }
[ -f "$cfg" ] || { echo "mkiso: menu $cfg not found" >&2; exit 1; }
for t in grub-mkrescue xorriso mformat; do
    command -v "$t" >/dev/null || { echo "mkiso: $t not found (apt-get install grub-common xorriso mtools grub-pc-bin grub-efi-amd64-bin)" >&2; exit 1; }
done
for p in i386-pc x86_64-efi; do
    [ -d /usr/lib/grub/$p ] || { echo "mkiso: GRUB $p modules missing (/usr/lib/grub/$p): install grub-pc-bin and grub-efi-amd64-bin" >&2; exit 1; }
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/iso/boot/grub"
cp "$elf" "$dir/iso/boot/hugezero.elf"
cp "$cfg" "$dir/iso/boot/grub/grub.cfg"
for m in ${MODULES:-}; do # boot modules for the grub.cfg's module2 lines
    mkdir -p "$dir/iso/boot/modules" && cp "$m" "$dir/iso/boot/modules/"
done
if ! grub-mkrescue -o "$out.tmp" "$dir/iso" >"$dir/log" 2>&1; then
    cat "$dir/log" >&2
    echo "mkiso: grub-mkrescue failed" >&2
    exit 1
fi
report=$(xorriso -indev "$out.tmp" -report_el_torito plain 2>/dev/null)
if ! echo "$report" | grep -q 'El Torito boot img : *[0-9]* *BIOS' ||
   ! echo "$report" | grep -q 'El Torito boot img : *[0-9]* *UEFI'; then
    echo "$report" >&2
    echo "mkiso: $out lacks a BIOS or a UEFI El Torito boot image" >&2
    rm -f "$out.tmp"
    exit 1
fi
mv "$out.tmp" "$out"
echo "mkiso: $out (BIOS + UEFI)"
