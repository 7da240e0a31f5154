#!/bin/sh
# tools/mkpxe.sh OUTDIR GRUB.CFG - TFTP root for GRUB netboot: BIOS
# (boot/grub/i386-pc/core.0) and UEFI (boot/grub/x86_64-efi/core.efi) made by
# grub-mknetdir, the kernel as boot/hugezero.elf (override with ELF=...) and
# the menu as boot/grub/grub.cfg; MODULES="FILE..." copies boot modules to
# boot/modules/ for its module2 lines.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 OUTDIR GRUB.CFG" >&2; exit 2; }
# OUT and GRUB.CFG are relative to the caller's directory; the default
# kernel is the tree's, wherever the script is run from.
root=$(cd "$(dirname "$0")/.." && pwd)
out=$1 cfg=$2 elf=${ELF:-$root/build/hugezero.elf}
[ -f "$elf" ] || { echo "mkpxe: kernel $elf not found (run make, or set ELF=)" >&2; exit 1; }
[ -f "$cfg" ] || { echo "mkpxe: menu $cfg not found" >&2; exit 1; }
command -v grub-mknetdir >/dev/null || { echo "mkpxe: grub-mknetdir not found (apt-get install grub-common)" >&2; exit 1; }
mkdir -p "$out/boot/grub"
for p in i386-pc x86_64-efi; do
    [ -d /usr/lib/grub/$p ] || { echo "mkpxe: GRUB $p modules missing: install grub-pc-bin and grub-efi-amd64-bin" >&2; exit 1; }
    if [ ! -f "$out/boot/grub/$p/core.0" ] && [ ! -f "$out/boot/grub/$p/core.efi" ]; then
        grub-mknetdir --net-directory="$out" --subdir=boot/grub -d /usr/lib/grub/$p >/dev/null 2>"$out/mknetdir.log" ||
            { cat "$out/mknetdir.log" >&2; echo "mkpxe: grub-mknetdir failed for $p" >&2; exit 1; }
    fi
done
rm -f "$out/mknetdir.log"
cp "$elf" "$out/boot/hugezero.elf"
cp "$cfg" "$out/boot/grub/grub.cfg"
rm -rf "$out/boot/modules"
for m in ${MODULES:-}; do # boot modules for the grub.cfg's module2 lines
    mkdir -p "$out/boot/modules" && cp "$m" "$out/boot/modules/"
done
[ -f "$out/boot/grub/i386-pc/core.0" ] && [ -f "$out/boot/grub/x86_64-efi/core.efi" ] ||
    { echo "mkpxe: core.0 or core.efi missing in $out/boot/grub" >&2; exit 1; }
echo "mkpxe: $out (BIOS core.0, UEFI core.efi)"
