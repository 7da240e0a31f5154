/*
 * lib/verdict_templates.c - every word of the verdict's items: the
 * template table lib/verdict_text.c renders (lib/verdict_text.h
 * vd_template()), grouped by template family (an item's `form`).
 * tools/hzlib/verdict_text.py's TEMPLATES is the same table, row for row;
 * tests/vectors/verdict_render.txt has a case for every row.
 */
#include "lib/kstring.h"
#include "lib/verdict_text.h"

/* "form:key" -> template. An item with a reason code takes "form:CODE",
 * else "*:CODE"; a decided one "form:OUTCOME", else "form:none". */
static const struct {
    const char *key, *tpl;
} templates[] = {
    /* every family: the reason codes with no family row of their own */
    {"*:NOT_IN_RUN", "not measured ({runs})"},
    {"*:TCG", "not decided: TCG, emulator timings"},
    {"*:NO_CELL", "not decided: no usable {a:need}{?; clear_pages() {xv:clear_pages_gai"
                  "n}?}"},
    {"*:LEFT_OUT", "not decided: every cell it needs left out: {a:why} (n={a:samples}){?"
                   ", and {a:more} more?}"},
    {"*:TARGET_SMALL", "not measured: the largest cold target, {a:target}, is below the page"},
    {"*:TEMPLATES", "not decided: its own template rows take more than {a:max} bytes"},
    /* clear_1g, clear_2m (scenarios/clear/verdict.c) */
    {"clear:faster", "{answer} {fig} {ci}: {ratio} {rci} faster than Linux clear_page{?; +"
                     "{more} {setw}?}|{answer} {fig}: {ratio} {rci} faster than Linux clea"
                     "r_page{?; +{more} {setw}?}"},
    {"clear:slower", "{answer} {fig} {ci}: {ratio} {rci} the speed of Linux clear_page{?; "
                     "+{more} {setw}?}|{answer} {fig}: {ratio} {rci} the speed of Linux cl"
                     "ear_page{?; +{more} {setw}?}"},
    {"clear:tie", "{answer} {fig} {ci}: ties Linux clear_page, {ratio} {rci}{?; +{more}"
                  " {setw}?}|{answer} {fig}: ties Linux clear_page, {ratio} {rci}{?; +{"
                  "more} {setw}?}"},
    {"clear:none", "{answer} {fig} {ci}{?; +{more} {setw}?}"},
    {"clear:NO_BASELINE", "open: {answer} {fig} {ci}{?; +{more} {setw}?}; no Linux clear_page c"
                          "ell"},
    {"clear:STRADDLES", "open: {answer} {ratio} {rci} vs Linux clear_page ({n}){?; +{more} {s"
                        "etw}?}\nstraddles +-{tol}: {answer} {fig} {ci}"},
    /* non-temporal (scenarios/clear/verdict.c) */
    {"nontemporal:faster", "yes: {a:nt} is {ratio} {rci} faster than {base} at {a:chunk}{?; {oth"
                           "ers}?}"},
    {"nontemporal:slower", "no: {a:nt} is {ratio} {rci} the speed of {base} at {a:chunk}{?; {oth"
                           "ers}?}"},
    {"nontemporal:tie", "tie: {a:nt} is {ratio} {rci} of {base} at {a:chunk}{?; {others}?}"},
    {"nontemporal:STRADDLES", "open: {a:nt} {ratio} {rci} of {base} at {a:chunk} ({n}){?; {others}?"
                              "}"},
    {"nontemporal:NO_PAIR", "not measured: no call size with a non-temporal and a temporal cell"},
    /* fault (scenarios/fault/verdict.c) */
    {"fault:slower", "prezero pays {x:left_for_prezero} of a {a:page}{? {a:path}?} fault's {"
                     "fig}{?; linux_4k {xv:linux_4k_fault}?}{?\nclear_pages() {x:clear_pages_"
                     "gain}?}{? at preempt={a:gain_preempt}?}{?, published {a:published_cpu}"
                     " {a:published_version} {xv:published_gain}?}{? in {a:published_batch} "
                     "batches?}{?; then prezero pays {xv:left_after_clear_pages}?}|prezero p"
                     "ays {x:left_for_prezero} of a {a:page}{? {a:path}?} fault's {fig}{?; l"
                     "inux_4k {xv:linux_4k_fault}?}{?\nclear_pages() {xv:clear_pages_gain}?}{"
                     "? at preempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:publ"
                     "ished_version} {xv:published_gain}?}{? in {a:published_batch} batches?"
                     "}{?; then prezero pays {xv:left_after_clear_pages}?}|prezero pays {xv:"
                     "left_for_prezero} of a {a:page}{? {a:path}?} fault's {fig}{?; linux_4k"
                     " {xv:linux_4k_fault}?}{?\nclear_pages() {xv:clear_pages_gain}?}{? at pr"
                     "eempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:published_v"
                     "ersion} {xv:published_gain}?}{? in {a:published_batch} batches?}{?; th"
                     "en prezero pays {xv:left_after_clear_pages}?}|prezero pays {xv:left_fo"
                     "r_prezero} of a {a:page}{? {a:path}?} fault's {fig}{?; linux_4k {xv:li"
                     "nux_4k_fault}?}{?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={"
                     "a:gain_preempt}?}{?, published {a:published_cpu} {a:published_version}"
                     " {xv:published_gain}?}{? in {a:published_batch} batches?}|prezero pays"
                     " {xv:left_for_prezero} of a {a:page}{? {a:path}?} fault's {fig}{?\nclea"
                     "r_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preempt}?}{?, p"
                     "ublished {a:published_cpu} {a:published_version} {xv:published_gain}?}"
                     "{? in {a:published_batch} batches?}|prezero pays {xv:left_for_prezero}"
                     " of a {a:page}{? {a:path}?} fault's {fig}{?\nclear_pages() {xv:clear_pa"
                     "ges_gain}?}{? at preempt={a:gain_preempt}?}|prezero pays {x:left_after"
                     "_clear_pages} of a {a:page} fault's {fig} after clear_pages() {xv:clea"
                     "r_pages_gain}{?\nthe gain at preempt={a:gain_preempt}?}{?, published {a"
                     ":published_cpu} {a:published_version} {xv:published_gain}?}{? in {a:pu"
                     "blished_batch} batches?}|prezero pays: a zeroing {a:page} fault takes "
                     "{ratio} {rci} the time of a pre-zeroed one"},
    {"fault:none", "no gain: a zeroing {a:page}{? {a:path}?} fault takes {ratio} {rci} the"
                   " time of a pre-zeroed one{?\nclear_pages() {xv:clear_pages_gain}?}{? at"
                   " preempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:publishe"
                   "d_version} {xv:published_gain}?}{? in {a:published_batch} batches?}{?;"
                   " then prezero pays {xv:left_after_clear_pages}?}|no gain: a zeroing {a"
                   ":page}{? {a:path}?} fault takes {ratio} {rci} the time of a pre-zeroed"
                   " one{?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_pree"
                   "mpt}?}{?, published {a:published_cpu} {a:published_version} {xv:publis"
                   "hed_gain}?}{? in {a:published_batch} batches?}|no gain: a zeroing {a:p"
                   "age}{? {a:path}?} fault takes {ratio} {rci} the time of a pre-zeroed o"
                   "ne{?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gain_preemp"
                   "t}?}|no gain: a zeroing {a:page} fault takes {ratio} {rci} the time of"
                   " a pre-zeroed one{?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt"
                   "={a:gain_preempt}?}|no gain: a zeroing {a:page} fault takes {ratio} {r"
                   "ci} the time of a pre-zeroed one"},
    {"fault:STRADDLES", "open: a zeroing {a:page}{? {a:path}?} fault takes {ratio} {rci} the ti"
                        "me of a pre-zeroed one ({n}){?\nclear_pages() {xv:clear_pages_gain}?}{?"
                        " at preempt={a:gain_preempt}?}{?, published {a:published_cpu} {a:publi"
                        "shed_version} {xv:published_gain}?}{? in {a:published_batch} batches?}"
                        "{?; then prezero pays {xv:left_after_clear_pages}?}|open: a zeroing {a"
                        ":page}{? {a:path}?} fault takes {ratio} {rci} the time of a pre-zeroed"
                        " one ({n}){?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:gai"
                        "n_preempt}?}{?, published {a:published_cpu} {a:published_version} {xv:"
                        "published_gain}?}{? in {a:published_batch} batches?}|open: a zeroing {"
                        "a:page}{? {a:path}?} fault takes {ratio} {rci} the time of a pre-zeroe"
                        "d one ({n}){?\nclear_pages() {xv:clear_pages_gain}?}{? at preempt={a:ga"
                        "in_preempt}?}|open: a zeroing {a:page} fault takes {ratio} {rci} the t"
                        "ime of a pre-zeroed one ({n}){?\nclear_pages() {xv:clear_pages_gain}?}{"
                        "? at preempt={a:gain_preempt}?}|open: a zeroing {a:page} fault takes {"
                        "ratio} {rci} the time of a pre-zeroed one ({n})"},
    /* idle zeroer from run=clear, and from run=interference (scenarios/interference/verdict.c) */
    {"idle_cpu:faster", "{answer} {fig} {ci} CPU, {ratio} {rci} faster than Linux clear_page|"
                        "{answer} {fig} CPU, {ratio} {rci} faster than Linux clear_page"},
    {"idle_cpu:slower", "{answer} {fig} {ci} CPU, {ratio} {rci} the speed of Linux clear_page"
                        "|{answer} {fig} CPU, {ratio} {rci} the speed of Linux clear_page"},
    {"idle_cpu:tie", "{answer} {fig} {ci} CPU, ties Linux clear_page, {ratio} {rci}|{answe"
                     "r} {fig} CPU, ties Linux clear_page, {ratio} {rci}"},
    {"idle_cpu:none", "{answer} {fig} {ci} CPU per GiB; neighbours not measured"},
    {"idle_cpu:STRADDLES", "open: {answer} {ratio} {rci} vs Linux clear_page ({n})"},
    {"idle:tie",
     "harmless: {a:strategy} at <= {a:rate_pct}% of peak, {fig} CPU{? in {a:call} calls?}:"
     " {a:victim} {cost} {costci} vs {base}"
     "|harmless: {a:strategy} at <= {a:rate_pct}%, {fig} CPU{? in {a:call} calls?}:"
     " {a:victim} {cost} {costci} vs {base}"
     "|harmless: {answer}, {fig} CPU{? in {a:call} calls?}: {a:victim} {cost} {costci} vs"
     " {base}"
     "|harmless: {answer}, {fig} CPU: {a:victim} {cost} {costci} vs {base}{?\nthat CPU per"
     " GiB in {a:call} calls, the size it issued?}"},
    {"idle:none", "none: every rate costs; least, {a:strategy} at {a:rate_pct}%: {a:vic"
                  "tim} {cost} {costci}"},
    {"idle:STRADDLES", "open: {a:strategy} at {a:rate_pct}% on {a:victim}: {cost} {costci} v"
                       "s {base} ({n})"},
    {"idle:RATE_MISS", "not decided: {a:strategy} at {a:rate_pct}% missed its rate: {a:victi"
                       "m} {cost} {costci}"},
    {"idle:CONTENTION",
     "not decided: CPU contention, the spin control alone slows {a:victim} {cost}"
     " {costci}\nneeds a host with {a:needs} (docs/lab.md)"
     "|not decided: CPU contention: spin control alone slows {a:victim} {cost}"
     " {costci}\nneeds a host with {a:needs} (docs/lab.md)"
     "|not decided, CPU contention: spin alone slows {a:victim} {cost} {costci}\nneeds a"
     " host with {a:needs} (docs/lab.md)"
     "|CPU contention: spin control alone slows {a:victim} {cost} {costci}\nneeds a host"
     " with {a:needs} (docs/lab.md)"},
    {"idle:NO_LLC",
     "not decided: no LLC-resident victim, L3 unseen{?; {a:strategy} at {a:rate_pct}% on"
     " {a:victim}: {cost} {costci} vs {base}?}\nneeds a host with {a:needs} (docs/lab.md)"
     "|not decided: no LLC-resident victim{?; {a:strategy} at {a:rate_pct}%: {a:victim}"
     " {cost} {costci}?}\nneeds a host with {a:needs} (docs/lab.md)"
     "|not decided: no LLC-resident victim\nneeds a host with {a:needs} (docs/lab.md)"},
    /* VM start (scenarios/vmstart/verdict.c) */
    {"vmstart:none", "2 TB, {a:threads} threads {fig} {ci} (model, B {xv:ceiling} {a:b_sou"
                     "rce}){?; clear_pages() {xv:clear_pages_gain}?}|2 TB, {a:threads} thr"
                     "eads {fig} (model, B {xv:ceiling} {a:b_source}){?; clear_pages() {xv"
                     ":clear_pages_gain}?}"},
    {"vmstart:FEW_CPUS", "2 TB, {a:threads} threads >= {fig} {ci} linear model{? ({a:timings})?}"
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
                         " T={a:below} {ratio} {a:scaling}?}"},
    {"vmstart:B_GIVEN", "2 TB, {a:threads} threads {fig} {ci} model{? ({a:timings})?} (B given:"
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
                        "; T={a:top} vs T={a:below} {ratio} {a:scaling}?}"},
    {"vmstart:CEILING_OPEN",
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
     "ing}?}"},
    {"vmstart:TCG", "2 TB, {a:threads} threads {fig} {ci} ({?{a:timings} ?}model, B {xv:cei"
                    "ling} {a:b_source}){?; clear_pages() {xv:clear_pages_gain}?}\nnot decid"
                    "ed: TCG, emulator timings|2 TB, {a:threads} threads {fig} ({?{a:timing"
                    "s} ?}model, B {xv:ceiling} {a:b_source})\nnot decided: TCG, emulator ti"
                    "mings|not decided: TCG, emulator timings"},
    /* NUMA (scenarios/numa/verdict.c) */
    {"numa:slower", "own node: remote is {ratio1} {rci} the speed of local ({a:strategy} "
                    "{a:chunk})"},
    {"numa:tie", "any node: remote is {ratio} {rci} of local ({a:strategy} {a:chunk}),"
                 " within +-{tol}"},
    {"numa:faster", "remote faster: {ratio} {rci} local ({a:strategy} {a:chunk})"},
    {"numa:none", "one node: where pre-zeroing runs cannot matter"},
    {"numa:STRADDLES", "open: remote {ratio} {rci} of local ({n})"},
    {"numa:NO_REMOTE", "not decided: no usable remote cell beside a local one"},
    /* trust (lib/verdict.c) */
    {"trust:none", "{hv}, TSC {tsc}, ring 0 {ring0}, RAM {backing}, steal {steal}, "
                   "{left_out}/{cells} cells out{?\n{lost}?}|{hv}, TSC {tsc}, RAM {backing}, steal "
                   "{steal}, {left_out}/{cells} cells out{?\n{lost}?}"},
};

const char *vd_template(const char *form, const char *key)
{
    size_t fl = strlen(form);
    for (size_t i = 0; i < sizeof(templates) / sizeof(templates[0]); i++) {
        const char *k = templates[i].key;
        if (strncmp(k, form, fl) == 0 && k[fl] == ':' && strcmp(k + fl + 1, key) == 0)
            return templates[i].tpl;
    }
    return 0;
}
