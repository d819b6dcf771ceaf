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
# TEST_MODULES=m: the runner's test helper modules too (Kbuild).
KBUILD_VARS := CONFIG_KTLS_HS=m CONFIG_KTLS_HS_KUNIT_TEST=$(KUNIT) \
	       CONFIG_KTLS_HS_TEST_MODULES=$(TEST_MODULES)
# The release the kernel reports (uname -r), where modules_install puts
# the module; not `make kernelrelease`, which Debian 6.1's headers answer
# with the upstream version (6.1.192 for 6.1.0-56-amd64).
KRELEASE = $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)
VM_RUN := tools/testing/vm/run

.PHONY: all modules tool tool-install clean install check quick deps lint crypto fuzz bench bench-hs bench-http demo help

# The module first; then the ktls tool, where this tree has it (the
# runner's module builds copy the module's sources only) and the
# machine has what it takes: a C compiler and the kernel's uapi headers.
all: modules
	@$(MAKE) --no-print-directory tool

TOOL_DIR := tools/ktls
PREFIX ?= /usr/local
tool-ok = $(and $(wildcard $(TOOL_DIR)/Makefile),$(shell echo '\#include <linux/inet_diag.h>' | \
	$(CC) -E -x c - >/dev/null 2>&1 && echo y))

tool:
	$(if $(tool-ok),$(MAKE) -C $(TOOL_DIR) PREFIX=$(PREFIX),@echo "ktls tool: skipped (no $(TOOL_DIR), C compiler or linux uapi headers)")

modules:
	$(need-kdir)$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_VARS) modules

clean:
	$(need-kdir)$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_VARS) clean
	$(if $(wildcard $(TOOL_DIR)/Makefile),$(MAKE) -C $(TOOL_DIR) clean)
	rm -rf out

# Into /lib/modules/<release>/updates/, which depmod searches before the
# kernel's own tree, plus the modprobe policy that keeps tls.ko away.
# INSTALL_MOD_PATH and DESTDIR stage it under another root.
install: modules
	$(need-kdir)$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_VARS) INSTALL_MOD_DIR=updates modules_install
	install -D -m 0644 tools/install/ktls_hs.conf $(DESTDIR)/etc/modprobe.d/ktls_hs.conf
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE)
	@$(MAKE) --no-print-directory tool-install

# The tool into /usr/local (sbin/ktls, lib/ktls/ktls_preload.so), the
# place of software the distribution does not manage; PREFIX moves it.
# The man page too, where rst2man can make it.
RST2MAN = $(firstword $(foreach c,rst2man rst2man.py,$(shell command -v $(c))))
tool-install:
	$(if $(tool-ok),$(MAKE) -C $(TOOL_DIR) install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR),@echo "ktls tool: not installed (not built)")
	$(if $(and $(tool-ok),$(RST2MAN)),install -d $(DESTDIR)$(PREFIX)/share/man/man8 && \
		$(RST2MAN) Documentation/ktls.8.rst > $(DESTDIR)$(PREFIX)/share/man/man8/ktls.8)

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

# The userspace build of crypto/: known answers, the differential tests
# and the constant-time checks (TAP), then the benchmarks against
# OpenSSL (P-256) and Go (ML-KEM-768).
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

# nginx serving files over HTTPS four ways (userspace TLS, kTLS on ours
# and on tls.ko, an armed listener), fetched by wrk from the host.
bench-http:
	tools/bench/http_run

help:
	@echo 'modules  build ktls_hs.ko against KDIR=$(KDIR)'
	@echo 'tool     build tools/ktls/ktls, the administration tool (make builds it too)'
	@echo 'install  install into /lib/modules/<release>/updates and run depmod;'
	@echo '         the ktls tool into $(PREFIX)/sbin'
	@echo 'check    the full test run in VMs (installs what it needs)'
	@echo 'quick    KERNEL=distro|debug SUITES=kunit,selftests,upstream'
	@echo 'lint     W=1, sparse and checkpatch'
	@echo 'crypto   P-256, ML-KEM-768 in userspace: known answers, constant time, benchmark'
	@echo 'fuzz     libFuzzer on the engine, parsers and framer, FUZZ_SECONDS each'
	@echo 'demo     HTTPS with the handshake in the kernel, in a VM, fetched with curl'
	@echo 'deps     install the packages the runner needs (apt, pip)'
	@echo 'bench    throughput of ktls_hs.ko over the in-tree tls.ko, in a VM'
	@echo 'bench-hs handshakes/s and 1 KB responses/s of ours over nginx, in a VM'
	@echo 'bench-http nginx + wrk, 1 KB to 16 MB files: userspace TLS, kTLS, armed listener'
