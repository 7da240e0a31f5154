# tests/rules.mk - host unit tests (cmocka). Each subsystem's rules.mk adds
#   HOST_TESTS += <name>
#   HOST_SRCS_<name> := <portable .c/.asm sources under test>
# and writes tests/unit/test_<name>.c. They build to build/host/test_<name>.

HOST_LIBS := -lcmocka

# The item registry and an item that lives in this test build only
# (tests/unit/test_verdict_item.c): the engine links every scenario's item
# (VERDICT_C, scenarios/*/rules.mk) and the test's own.
HOST_TESTS += verdict_item
HOST_SRCS_verdict_item = lib/verdict.c lib/verdict_text.c lib/verdict_names.c lib/verdict_templates.c \
	lib/published.c $(VERDICT_C) lib/compare.c lib/stats.c lib/vmmodel.c lib/fmt.c lib/record.c

$(B)/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(HOSTCC) $(HCFLAGS) $(HCFLAGS_$(notdir $*)) -c $< -o $@

$(B)/host/%.asm.o: %.asm
	@mkdir -p $(dir $@)
	$(NASM) $(NASMFLAGS) -MT $@ -MF $(@:.o=.d) $< -o $@

host_objs = $(patsubst %.asm,$(B)/host/%.asm.o,$(filter %.asm,$(1))) \
	$(patsubst %.c,$(B)/host/%.o,$(filter %.c,$(1)))

define host_test_rule
$(B)/host/test_$(1): $(B)/host/tests/unit/test_$(1).o $(call host_objs,$(HOST_SRCS_$(1)))
	$$(HOSTCC) -o $$@ $$^ $(HOST_LIBS) $(HOST_LDLIBS_$(1))
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test_rule,$(t))))

.PHONY: host-tests
host-tests: $(HOST_TESTS:%=$(B)/host/test_%)
