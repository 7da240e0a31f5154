# scenarios/ - one folder per scenario (`run=NAME`), each with its own
# rules.mk listing its sources and host tests. A scenario includes only
# lib/, arch/, mm/, kernel/, measure/ and its own folder: what two scenarios
# share lives in measure/. Adding a scenario: its folder and its name here.
SCENARIOS := fault faultclear clear numa smp interference prezero policies vmstart
include $(SCENARIOS:%=scenarios/%/rules.mk)
