"""The registry of the scenarios' host sides: one module per scenario
(tools/hzlib/scenarios/NAME.py, run=NAME), each ending in a SCENARIO row
(base.Scenario: the record types it owns, its report.html tables, its hz
report --text --full blocks, its plots, its hz compare rows and its make
bench boot). hz report, hz compare, hz plot and make bench walk ALL in
its order and call what each row has; none of them names a scenario.

A new scenario with host tables adds its module and one line in ALL. The
order is the page's (report.html tables, hz plot's files, hz compare's
rows, make bench's boots after the ratios).
"""


from . import clear, fault, faultclear, interference, numa, policies, prezero, smp, vmstart

ALL = (
    clear.SCENARIO,
    fault.SCENARIO,
    faultclear.SCENARIO,
    prezero.SCENARIO,
    policies.SCENARIO,
    smp.SCENARIO,
    numa.SCENARIO,
    vmstart.SCENARIO,
    interference.SCENARIO,
)
