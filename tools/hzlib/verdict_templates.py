"""Every word of the verdict's items: the template table that
tools/hzlib/verdict_text.py renders, row for row the table of
lib/verdict_templates.c, grouped by template family (an item's `form`).
tests/vectors/verdict_render.txt has a case for every row, and both
renderers must reproduce it to the byte (the syntax: verdict_text.py).
"""

from typing import Dict

# "form:key" -> template. A record with a reason code takes "form:CODE", else
# "*:CODE"; a decided one "form:OUTCOME" (its main comparison's: "faster",
# "slower", "tie"), else "form:none".
TEMPLATES: Dict[str, str] = {
    "*:NOT_IN_RUN": "not measured ({runs})",
    "*:TCG": "not decided: TCG, emulator timings",
    "*:NO_CELL": "not decided: no usable {a:need}{?; clear_pages() {xv:clear_pages_gain}?}",
    "*:LEFT_OUT": "not decided: every cell it needs left out: {a:why} (n={a:samples}){?, and {a:mo"
                  "re} more?}",
    "*:TARGET_SMALL": "not measured: the largest cold target, {a:target}, is below the page",
    "*:TEMPLATES": "not decided: its own template rows take more than {a:max} bytes",
    "clear:faster": "{answer} {fig} {ci}: {ratio} {rci} faster than Linux clear_page{?; +{more} {s"
                    "etw}?}"
                    "|{answer} {fig}: {ratio} {rci} faster than Linux clear_page{?; +{more} {setw}"
                    "?}",
    "clear:slower": "{answer} {fig} {ci}: {ratio} {rci} the speed of Linux clear_page{?; +{more} {"
                    "setw}?}"
                    "|{answer} {fig}: {ratio} {rci} the speed of Linux clear_page{?; +{more} {setw"
                    "}?}",
    "clear:tie": "{answer} {fig} {ci}: ties Linux clear_page, {ratio} {rci}{?; +{more} {setw}?}"
                 "|{answer} {fig}: ties Linux clear_page, {ratio} {rci}{?; +{more} {setw}?}",
    "clear:none": "{answer} {fig} {ci}{?; +{more} {setw}?}",
    "clear:NO_BASELINE": "open: {answer} {fig} {ci}{?; +{more} {setw}?}; no Linux clear_page cell",
    "clear:STRADDLES": "open: {answer} {ratio} {rci} vs Linux clear_page ({n}){?; +{more} {setw}?}"
                       "\nstraddles +-{tol}: {answer} {fig} {ci}",
    "nontemporal:faster": "yes: {a:nt} is {ratio} {rci} faster than {base} at {a:chunk}{?; {others"
                          "}?}",
    "nontemporal:slower": "no: {a:nt} is {ratio} {rci} the speed of {base} at {a:chunk}{?; {others"
                          "}?}",
    "nontemporal:tie": "tie: {a:nt} is {ratio} {rci} of {base} at {a:chunk}{?; {others}?}",
    "nontemporal:STRADDLES": "open: {a:nt} {ratio} {rci} of {base} at {a:chunk} ({n}){?; {others}?"
                             "}",
    "nontemporal:NO_PAIR": "not measured: no call size with a non-temporal and a temporal cell",
    "fault:slower": "prezero pays {x:left_for_prezero} of a {a:page}{? {a:path}?} fault's {fig}{?"
                    "; linux_4k {xv:linux_4k_fault}?}{?\nclear_pages() {x:clear_pages_gain}?}{? a"
                    "t preempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:published_ver"
                    "sion} {xv:published_gain}?}{? in {a:published_batch} batches?}{?; then preze"
                    "ro pays {xv:left_after_clear_pages}?}|prezero pays {x:left_for_prezero} of a"
                    " {a:page}{? {a:path}?} fault's {fig}{?; linux_4k {xv:linux_4k_fault}?}{?\ncl"
                    "ear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}{?, publi"
                    "shed {a:published_cpu} {a:published_version} {xv:published_gain}?}{? in {a:p"
                    "ublished_batch} batches?}{?; then prezero pays {xv:left_after_clear_pages}?}"
                    "|prezero pays {xv:left_for_prezero} of a {a:page}{? {a:path}?} fault's {fig}"
                    "{?; linux_4k {xv:linux_4k_fault}?}{?\nclear_pages() {xv:clear_pages_gain}?}{"
                    "? at preempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:published_"
                    "version} {xv:published_gain}?}{? in {a:published_batch} batches?}{?; then pr"
                    "ezero pays {xv:left_after_clear_pages}?}|prezero pays {xv:left_for_prezero} "
                    "of a {a:page}{? {a:path}?} fault's {fig}{?; linux_4k {xv:linux_4k_fault}?}{?"
                    "\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}{?, p"
                    "ublished {a:published_cpu} {a:published_version} {xv:published_gain}?}{? in "
                    "{a:published_batch} batches?}|prezero pays {xv:left_for_prezero} of a {a:pag"
                    "e}{? {a:path}?} fault's {fig}{?\nclear_pages() {xv:clear_pages_gain}?}{? at "
                    "preempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:published_versi"
                    "on} {xv:published_gain}?}{? in {a:published_batch} batches?}|prezero pays {x"
                    "v:left_for_prezero} of a {a:page}{? {a:path}?} fault's {fig}{?\nclear_pages("
                    ") {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}|prezero pays {x:le"
                    "ft_after_clear_pages} of a {a:page} fault's {fig} after clear_pages() {xv:cl"
                    "ear_pages_gain}{?\nthe gain at preempt={a:gain_preempt}?}{?, published {a:pu"
                    "blished_cpu} {a:published_version} {xv:published_gain}?}{? in {a:published_b"
                    "atch} batches?}|prezero pays: a zeroing {a:page} fault takes {ratio} {rci} t"
                    "he time of a pre-zeroed one",
    "fault:none": "no gain: a zeroing {a:page}{? {a:path}?} fault takes {ratio} {rci} the time of"
                  " a pre-zeroed one{?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gai"
                  "n_preempt}?}{?, published {a:published_cpu} {a:published_version} {xv:publishe"
                  "d_gain}?}{? in {a:published_batch} batches?}{?; then prezero pays {xv:left_aft"
                  "er_clear_pages}?}|no gain: a zeroing {a:page}{? {a:path}?} fault takes {ratio}"
                  " {rci} the time of a pre-zeroed one{?\nclear_pages() {xv:clear_pages_gain}?}{?"
                  " at preempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:published_ver"
                  "sion} {xv:published_gain}?}{? in {a:published_batch} batches?}|no gain: a zero"
                  "ing {a:page}{? {a:path}?} fault takes {ratio} {rci} the time of a pre-zeroed o"
                  "ne{?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}|no"
                  " gain: a zeroing {a:page} fault takes {ratio} {rci} the time of a pre-zeroed o"
                  "ne{?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}|no"
                  " gain: a zeroing {a:page} fault takes {ratio} {rci} the time of a pre-zeroed o"
                  "ne",
    "fault:STRADDLES": "open: a zeroing {a:page}{? {a:path}?} fault takes {ratio} {rci} the time "
                       "of a pre-zeroed one ({n}){?\nclear_pages() {xv:clear_pages_gain}?}{? at p"
                       "reempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:published_ver"
                       "sion} {xv:published_gain}?}{? in {a:published_batch} batches?}{?; then pr"
                       "ezero pays {xv:left_after_clear_pages}?}|open: a zeroing {a:page}{? {a:pa"
                       "th}?} fault takes {ratio} {rci} the time of a pre-zeroed one ({n}){?\ncle"
                       "ar_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}{?, pub"
                       "lished {a:published_cpu} {a:published_version} {xv:published_gain}?}{? in"
                       " {a:published_batch} batches?}|open: a zeroing {a:page}{? {a:path}?} faul"
                       "t takes {ratio} {rci} the time of a pre-zeroed one ({n}){?\nclear_pages()"
                       " {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}|open: a zeroing "
                       "{a:page} fault takes {ratio} {rci} the time of a pre-zeroed one ({n}){?\n"
                       "clear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}|ope"
                       "n: a zeroing {a:page} fault takes {ratio} {rci} the time of a pre-zeroed "
                       "one ({n})",
    "idle_cpu:faster": "{answer} {fig} {ci} CPU, {ratio} {rci} faster than Linux clear_page"
                       "|{answer} {fig} CPU, {ratio} {rci} faster than Linux clear_page",
    "idle_cpu:slower": "{answer} {fig} {ci} CPU, {ratio} {rci} the speed of Linux clear_page"
                       "|{answer} {fig} CPU, {ratio} {rci} the speed of Linux clear_page",
    "idle_cpu:tie": "{answer} {fig} {ci} CPU, ties Linux clear_page, {ratio} {rci}"
                    "|{answer} {fig} CPU, ties Linux clear_page, {ratio} {rci}",
    "idle_cpu:none": "{answer} {fig} {ci} CPU per GiB; neighbours not measured",
    "idle_cpu:STRADDLES": "open: {answer} {ratio} {rci} vs Linux clear_page ({n})",
    "idle:tie": (
        "harmless: {a:strategy} at <= {a:rate_pct}% of peak, {fig} CPU{? in {a:call} calls?}:"
        " {a:victim} {cost} {costci} vs {base}"
        "|harmless: {a:strategy} at <= {a:rate_pct}%, {fig} CPU{? in {a:call} calls?}:"
        " {a:victim} {cost} {costci} vs {base}"
        "|harmless: {answer}, {fig} CPU{? in {a:call} calls?}: {a:victim} {cost} {costci} vs"
        " {base}"
        "|harmless: {answer}, {fig} CPU: {a:victim} {cost} {costci} vs {base}{?\nthat CPU per"
        " GiB in {a:call} calls, the size it issued?}"),
    "idle:none": "none: every rate costs; least, {a:strategy} at {a:rate_pct}%: {a:victim} {cost} "
                 "{costci}",
    "idle:STRADDLES": "open: {a:strategy} at {a:rate_pct}% on {a:victim}: {cost} {costci} vs {base"
                      "} ({n})",
    "idle:RATE_MISS": "not decided: {a:strategy} at {a:rate_pct}% missed its rate: {a:victim} {cos"
                      "t} {costci}",
    "idle:CONTENTION": (
        "not decided: CPU contention, the spin control alone slows {a:victim} {cost}"
        " {costci}\nneeds a host with {a:needs} (docs/lab.md)"
        "|not decided: CPU contention: spin control alone slows {a:victim} {cost}"
        " {costci}\nneeds a host with {a:needs} (docs/lab.md)"
        "|not decided, CPU contention: spin alone slows {a:victim} {cost} {costci}\nneeds a"
        " host with {a:needs} (docs/lab.md)"
        "|CPU contention: spin control alone slows {a:victim} {cost} {costci}\nneeds a host"
        " with {a:needs} (docs/lab.md)"),
    "idle:NO_LLC": (
        "not decided: no LLC-resident victim, L3 unseen{?; {a:strategy} at {a:rate_pct}% on"
        " {a:victim}: {cost} {costci} vs {base}?}\nneeds a host with {a:needs} (docs/lab.md)"
        "|not decided: no LLC-resident victim{?; {a:strategy} at {a:rate_pct}%: {a:victim}"
        " {cost} {costci}?}\nneeds a host with {a:needs} (docs/lab.md)"
        "|not decided: no LLC-resident victim\nneeds a host with {a:needs} (docs/lab.md)"),
    "vmstart:none": "2 TB, {a:threads} threads {fig} {ci} (model, B {xv:ceiling} {a:b_source}){?; "
                    "clear_pages() {xv:clear_pages_gain}?}"
                    "|2 TB, {a:threads} threads {fig} (model, B {xv:ceiling} {a:b_source}){?; clea"
                    "r_pages() {xv:clear_pages_gain}?}",
    "vmstart:FEW_CPUS":
        "2 TB, {a:threads} threads >= {fig} {ci} linear model{? ({a:timings})?}"
        "{?; {x:amdahl} Amdahl model, serial {xv:amdahl_serial}?}{?; clear_page"
        "s() {xv:clear_pages_gain}?}\nopen: T=1..{a:cpus} here; a {a:want}-CPU h"
        "ost settles B{?; T={a:top} vs T={a:below} {ratio} {rci} {a:scaling}?}|"
        "2 TB, {a:threads} threads >= {fig} linear model{? ({a:timings})?}{?; {"
        "x:amdahl} Amdahl model, serial {xv:amdahl_serial}?}{?; clear_pages() {"
        "xv:clear_pages_gain}?}\nopen: T=1..{a:cpus} here; a {a:want}-CPU host s"
        "ettles B{?; T={a:top} vs T={a:below} {ratio} {rci} {a:scaling}?}|2 TB,"
        " {a:threads} threads >= {fig} linear model{? ({a:timings})?}{?; {xv:am"
        "dahl} Amdahl model, serial {xv:amdahl_serial}?}{?; clear_pages() {xv:c"
        "lear_pages_gain}?}\nopen: T=1..{a:cpus} here; a {a:want}-CPU host settl"
        "es B{?; T={a:top} vs T={a:below} {ratio} {rci} {a:scaling}?}|2 TB, {a:"
        "threads} threads >= {fig} linear model{? ({a:timings})?}{?; {xv:amdahl"
        "} Amdahl model, serial {xv:amdahl_serial}?}\nopen: T=1..{a:cpus} here; "
        "a {a:want}-CPU host settles B{?; T={a:top} vs T={a:below} {ratio} {rci"
        "} {a:scaling}?}|2 TB, {a:threads} threads >= {fig} linear model{? ({a:"
        "timings})?}{?; {xv:amdahl} Amdahl model, serial {xv:amdahl_serial}?}\no"
        "pen: T=1..{a:cpus} here; a {a:want}-CPU host settles B{?; T={a:top} vs"
        " T={a:below} {ratio} {a:scaling}?}",
    "vmstart:B_GIVEN":
        "2 TB, {a:threads} threads {fig} {ci} model{? ({a:timings})?} (B given:"
        " {xv:ceiling}){?; {xv:amdahl} Amdahl model, serial {xv:amdahl_serial}?"
        "}{?; clear_pages() {xv:clear_pages_gain}?}\nnot decided: B is bw_ceilin"
        "g=, not measured{?; T={a:top} vs T={a:below} {ratio} {rci} {a:scaling}"
        "?}|2 TB, {a:threads} threads {fig} model{? ({a:timings})?} (B given: {"
        "xv:ceiling}){?; {xv:amdahl} Amdahl model, serial {xv:amdahl_serial}?}{"
        "?; clear_pages() {xv:clear_pages_gain}?}\nnot decided: B is bw_ceiling="
        ", not measured{?; T={a:top} vs T={a:below} {ratio} {rci} {a:scaling}?}"
        "|2 TB, {a:threads} threads {fig} model{? ({a:timings})?} (B given: {xv"
        ":ceiling}){?; {xv:amdahl} Amdahl model, serial {xv:amdahl_serial}?}\nno"
        "t decided: B is bw_ceiling=, not measured{?; T={a:top} vs T={a:below} "
        "{ratio} {rci} {a:scaling}?}|2 TB, {a:threads} threads {fig} model{? ({"
        "a:timings})?} (B given: {xv:ceiling}){?; {xv:amdahl} Amdahl model, ser"
        "ial {xv:amdahl_serial}?}\nnot decided: B is bw_ceiling=, not measured{?"
        "; T={a:top} vs T={a:below} {ratio} {a:scaling}?}",
    "vmstart:CEILING_OPEN":
        "2 TB, {a:threads} threads >= {fig} {ci} linear model{? ({a:timings})?}"
        "; ceiling open{?; {xv:amdahl} Amdahl model, serial {xv:amdahl_serial}?"
        "}{?; clear_pages() {xv:clear_pages_gain}?}\nopen: no plateau to T={a:cp"
        "us}{?; T={a:top} vs T={a:below} {ratio} {rci} ({n}) {a:scaling}?}|2 TB"
        ", {a:threads} threads >= {fig} linear model{? ({a:timings})?}; ceiling"
        " open{?; {xv:amdahl} Amdahl model, serial {xv:amdahl_serial}?}{?; clea"
        "r_pages() {xv:clear_pages_gain}?}\nopen: no plateau to T={a:cpus}{?; T="
        "{a:top} vs T={a:below} {ratio} {rci} ({n}) {a:scaling}?}|2 TB, {a:thre"
        "ads} threads >= {fig} linear model{? ({a:timings})?}; ceiling open{?; "
        "{xv:amdahl} Amdahl model, serial {xv:amdahl_serial}?}\nopen: no plateau"
        " to T={a:cpus}{?; T={a:top} vs T={a:below} {ratio} {rci} ({n}) {a:scal"
        "ing}?}",
    "vmstart:TCG":
        "2 TB, {a:threads} threads {fig} {ci} ({?{a:timings} ?}model, B {xv:cei"
        "ling} {a:b_source}){?; clear_pages() {xv:clear_pages_gain}?}\nnot decid"
        "ed: TCG, emulator timings|2 TB, {a:threads} threads {fig} ({?{a:timing"
        "s} ?}model, B {xv:ceiling} {a:b_source})\nnot decided: TCG, emulator ti"
        "mings|not decided: TCG, emulator timings",
    "numa:slower": "own node: remote is {ratio1} {rci} the speed of local ({a:strategy} {a:chunk})",
    "numa:tie": "any node: remote is {ratio} {rci} of local ({a:strategy} {a:chunk}), within +-{to"
                "l}",
    "numa:faster": "remote faster: {ratio} {rci} local ({a:strategy} {a:chunk})",
    "numa:none": "one node: where pre-zeroing runs cannot matter",
    "numa:STRADDLES": "open: remote {ratio} {rci} of local ({n})",
    "numa:NO_REMOTE": "not decided: no usable remote cell beside a local one",
    "trust:none": "{hv}, TSC {tsc}, ring 0 {ring0}, RAM {backing}, steal {steal}, {left_out}/{cell"
                  "s} cells out{?\n{lost}?}"
                  "|{hv}, TSC {tsc}, RAM {backing}, steal {steal}, {left_out}/{cells} cells out{?"
                  "\n{lost}?}",
}

# Host only: the words of a verdict merged across boots (make bench, make
# answers' two boots, hz report of several runs; verdict_merge.py). The
# kernel prints one boot's block and has no such rows.
MERGED: Dict[str, str] = {
    "boot": "{value} [boot {boots}]",  # a fact the boots differ on, with the boots it held in
    "most": "up to {value}",  # the highest of a share the boots differ on
    "list": ", ",  # between a fact's values, and between the boots of one value
    "runs": " + ",  # between the boots' run= values in the header
}
