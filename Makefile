# SPDX-License-Identifier: GPL-2.0-only
# ktls-hs: out-of-tree build of ktls_hs.ko and the entry points of its
# test runner.  `make help` lists the targets.  Kbuild itself reads ./Kbuild.

# The running kernel's build tree, else the newest Debian 6.12 headers
# (the case on build hosts that run another kernel).
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
		    $(lastword $(sort $(wildcard /usr/src/linux-headers-6.12*-amd64))))
# Only the targets that build need it: check, quick and deps install the
# headers themselves on a fresh machine.
need-kdir = $(if $(KDIR),,$(error no kernel build tree: set KDIR, or install \
	linux-headers-$$(uname -r) (make deps does)))

KUNIT := $(if $(shell grep -s '^CONFIG_KUNIT=[ym]' $(KDIR)/.config),m)
KBUILD_VARS := CONFIG_KTLS_HS=m CONFIG_KTLS_HS_KUNIT_TEST=$(KUNIT)
KRELEASE = $(shell $(MAKE) -s -C $(KDIR) kernelrelease 2>/dev/null)
VM_RUN := tools/testing/vm/run

.PHONY: all modules clean install check quick deps lint crypto fuzz bench bench-hs demo help

all: modules

modules:
	$(need-kdir)$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_VARS) modules

clean:
	$(need-kdir)$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_VARS) clean
	rm -rf out

# Into /lib/modules/<release>/updates/, which depmod searches before the
# kernel's own tree, plus the modprobe policy that keeps tls.ko away.
# INSTALL_MOD_PATH and DESTDIR stage it under another root.
install: modules
	$(need-kdir)$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_VARS) INSTALL_MOD_DIR=updates modules_install
	install -D -m 0644 tools/install/ktls_hs.conf $(DESTDIR)/etc/modprobe.d/ktls_hs.conf
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE)

# Everything, both kernels, ending in "N passed, N failed".
check:
	$(VM_RUN) check

# Inner loop: one kernel, chosen suites (see `tools/testing/vm/run --help`).
KERNEL ?= distro
SUITES ?= kunit,selftests
quick:
	$(VM_RUN) quick --kernel $(KERNEL) --suites $(SUITES)

deps:
	$(VM_RUN) deps

# W=1 and sparse over the module, checkpatch over the C sources.
lint:
	$(VM_RUN) lint

# The userspace build of crypto/: known answers and the constant-time
# check (TAP), then the benchmark against OpenSSL.
crypto:
	$(MAKE) -C tools/crypto check bench

# libFuzzer with ASan/UBSan on the handshake engine, the identity
# parsers and the record framer, each FUZZ_SECONDS in turn: execs/s
# and edge coverage per target; a crash fails and is kept in out/fuzz/.
FUZZ_SECONDS ?= 60
fuzz:
	$(MAKE) -C tools/fuzz run FUZZ_SECONDS=$(FUZZ_SECONDS)

# ktls_hs.ko against the in-tree tls.ko in one VM boot: a table of ratios.
bench:
	tools/bench/run

# The main job: an HTTPS server whose TLS handshake runs in the kernel,
# in a VM, fetched with curl.
demo:
	tools/demo/run

# The in-kernel handshake against nginx + OpenSSL in one VM boot: ratios.
bench-hs:
	tools/bench/hs_run

help:
	@echo 'modules  build ktls_hs.ko against KDIR=$(KDIR)'
	@echo 'install  install into /lib/modules/<release>/updates and run depmod'
	@echo 'check    the full test run in VMs (installs what it needs)'
	@echo 'quick    KERNEL=distro|debug SUITES=kunit,selftests,upstream'
	@echo 'lint     W=1, sparse and checkpatch'
	@echo 'crypto   P-256 in userspace: known answers, constant-time check, benchmark'
	@echo 'fuzz     libFuzzer on the engine, parsers and framer, FUZZ_SECONDS each'
	@echo 'demo     HTTPS with the handshake in the kernel, in a VM, fetched with curl'
	@echo 'deps     install the packages the runner needs (apt, pip)'
	@echo 'bench    throughput of ktls_hs.ko over the in-tree tls.ko, in a VM'
	@echo 'bench-hs handshakes/s and 1 KB responses/s of ours over nginx, in a VM'
