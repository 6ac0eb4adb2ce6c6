# The README's commands. `make run` shows the demo; `make check` runs the unit tests in about a minute;
# `make test` runs every test. `run` and `test` install what they need first (scripts/install-deps skips
# what is there).

SWIFT ?= swift
ORIENTD_EVAL_DIR ?= $(abspath ../shared/eval)
export ORIENTD_EVAL_DIR

.PHONY: all deps build release man-tool run demo demo-classify classifier-figures check test system-test lint format bench
.PHONY: latency side-by-side side-by-side-light clean fuzz install-test

all: build

deps:
	@scripts/install-deps

build:
	$(SWIFT) build

# The release binaries that install and the packages ship: SwiftPM's release build with the Swift standard library
# linked in (--static-swift-stdlib) and no rpath into the build folder, linked as SwiftPM links any program: a
# position-independent executable (PIE) with the toolchain's stack protector and RELRO. SwiftPM reads no LDFLAGS and
# links without -z now, so RELRO is made full here with the flag the distributions' own build flags pass to every
# C program (dpkg-buildflags' bindnow, Fedora's and Arch's default LDFLAGS): the GOT is resolved at start-up and
# read-only after it. scripts/install, the PKGBUILD and the spec build the same way; scripts/package-tests checks
# the packaged binary (docs/performance.md has the checks and what they cost).
# RELEASE_SCRATCH=DIR builds into DIR instead of .build (`make test` does, so that the build runs beside its
# tests, which hold .build's lock while they run).
RELEASE_LINK = -Xlinker -z -Xlinker now
RELEASE_BUILD = $(SWIFT) build $(if $(RELEASE_SCRATCH),--scratch-path $(RELEASE_SCRATCH)) -c release
release:
	$(RELEASE_BUILD) --product orientd --static-swift-stdlib --disable-local-rpath $(RELEASE_LINK)
	$(RELEASE_BUILD) --product orientctl --static-swift-stdlib --disable-local-rpath $(RELEASE_LINK)

# swift-argument-parser's generate-manual tool, which scripts/install makes the man pages with.
man-tool:
	@$(SWIFT) package plugin generate-manual --help >/dev/null 2>&1 || $(SWIFT) package plugin generate-manual --help

# The demo: the daemon on an emulated accelerometer, watched by orientctl watch.
run demo: deps
	$(SWIFT) build --product orientd
	$(SWIFT) build --product orientctl
	@bin=$$($(SWIFT) build --show-bin-path) && scripts/demo.py $$bin/orientd $$bin/orientctl

# The classifier alone on generated traces.
demo-classify: deps
	@scripts/demo-classify

# Rotation latency, false and missed rotations, face-up and face-down latency of the release classifier on
# upright and reclined turns at 10, 25 and 100 Hz (scripts/classifier_scenarios.py; figures, not a test).
classifier-figures: deps
	$(SWIFT) build -c release --product orientd
	$$(scripts/python-with-numpy) scripts/classifier_scenarios.py figures \
		--orientd $$($(SWIFT) build -c release --show-bin-path)/orientd

# The unit tests alone, about a minute once built (the first build takes longer): no root, no containers, no
# emulated devices, nothing from ../shared. ORIENTD_TESTS=unit leaves the end-to-end targets (DaemonEndToEndTests,
# SensorCaptureTests, SensorProxyBusTests, OrientctlEndToEndTests, OrientdTestKitTests: the real binaries on devices
# emulated by umockdev, their rigs in OrientdTestKit) and the benchmarks out of the package (Package.swift), so that
# only the unit-test targets, what they test and what they share (OrientdTestSupport, EngineFakes) are built; they
# run in parallel. The classifier's scenario tests (they need the evaluation kit, ../shared/eval) are left to
# `make test`. The generate-manual tool (man-tool) is built first for the install test of orientdTests. The test
# bundle then holds the unit tests only: `swift build --build-tests` (or `make test`) links every target again.
# UNIT_TESTS lists the unit-test targets; those with a folder in Tests/ are run.
UNIT_TESTS = OrientationCoreTests IniFormatTests SystemSupportTests EventLoopTests SensorDevicesTests TabletModeTests \
	EvdevSupportTests OrientProtocolTests OrientDaemonTests OrientClientTests OrientctlTests orientdTests
UNIT_TEST_TARGETS = $(notdir $(wildcard $(addprefix Tests/,$(UNIT_TESTS))))
empty :=
space := $(empty) $(empty)
UNIT_FILTER = ^($(subst $(space),|,$(strip $(UNIT_TEST_TARGETS))))\.
check: man-tool
	ORIENTD_TESTS=unit $(SWIFT) build --build-tests
	ORIENTD_TESTS=unit scripts/run-swift-tests -- $(SWIFT) test --skip-build --parallel --filter '$(UNIT_FILTER)' \
		--skip '^orientdTests\.Classifier(Evaluation|Scenario)Tests'

# Every test: lint, the unit and end-to-end targets (swift test with no filter; the reliability scenarios among
# them, each run once), the demos, the tests of the scripts' harness, the install check, the
# packages (make packages: .deb, Arch, RPM) checked against make install's files, the udev rules on emulated
# devices, a short fuzz run, the system tests, and the GNOME extension and KWin script in the desktops of Debian
# testing and unstable (desktop-next-test; its chroots are made the first time, kept in .build-chroots/).
# The unit targets run first, in a process of their own, then every other target
# (the end-to-end ones) in another; each one test at a time (--no-parallel). Run in parallel on two cores, a test
# now and then never ended: libdispatch had taken the expiry of its CLOCK_BOOTTIME timerfd off its epoll without
# arming it again, so no Task.sleep in the process ever woke (seen in the descriptors run-swift-tests prints; one
# test at a time, it was not seen in a dozen runs). Each swift test runs under scripts/run-swift-tests: a test
# that hangs (nothing printed for 5 minutes) fails the run with the names of the tests still running, the
# process's descriptors (an epoll's watched descriptors, a timer's state) and every thread's stack.
# The tests mostly wait (on timers, devices, processes), one at a time: while they run, make -j does, on the CPU time
# they leave (chrt --idle: SCHED_IDLE, which the compilers SwiftPM starts keep, as they do not keep a nice value)
# and each into its own log (.build/test-logs/), what needs no test: the release build (into
# .build-release, since swift test holds .build's lock; the classifier demo, the packages and the system tests use
# it, so it is built once), the fuzz targets' build, and the desktops' chroots. The system tests install the .deb
# that package-test built. Each phase's seconds are printed at the end (scripts/phase-times).
TEST_RELEASE = .build-release
TEST_LOGS = .build/test-logs
PHASE = @scripts/phase-times mark
test: deps
	@scripts/phase-times begin "lint, generate-manual tool"
	@$(MAKE) --no-print-directory lint man-tool
	$(PHASE) "build (debug, with the tests)"
	$(SWIFT) build --build-tests
	$(PHASE) "swift test, and beside it: release build, fuzz build, desktop chroots"
	@$(MAKE) --no-print-directory -j4 test-swift test-release test-fuzz-build test-desktop-chroots
	$(PHASE) "demo"
	@echo "== demo (short run: the same motion, 8 times faster)"
	@bin=$$($(SWIFT) build --show-bin-path) && out=$$(scripts/demo.py $$bin/orientd $$bin/orientctl --speed 8) && \
		echo "$$out" && for device in unknown landscape-left portrait landscape-right portrait-upside-down \
			face-up face-down; do echo "$$out" | grep -q "^device=$$device " || \
			{ echo "demo: device=$$device never shown"; exit 1; }; done && \
		echo "$$out" | grep -q "accelerometer is restored" && echo "demo: all seven device orientations shown"
	$(PHASE) "classifier demo"
	@echo "== classifier demo (short run)"
	@out=$$(SCENARIOS=rotate ORIENTD_BIN=$$($(TEST_RELEASE_BIN))/orientd scripts/demo-classify) && echo "$$out" && \
		count=$$(echo "$$out" | grep -c '"device"') && test "$$count" -gt 1 && \
		echo "classifier demo: $$count classifications printed"
	$(PHASE) "the scripts' harness"
	@echo "== the scripts' harness"
	@$(MAKE) --no-print-directory test-scripts
	$(PHASE) "install-test"
	@$(MAKE) --no-print-directory install-test
	$(PHASE) "package-test"
	@$(MAKE) --no-print-directory package-test BIN_DIR="$$($(TEST_RELEASE_BIN))"
	$(PHASE) "udev-test"
	@$(MAKE) --no-print-directory udev-test
	$(PHASE) "fuzz (15 s per target)"
	@echo "== fuzzing (short run: 15 s per target)"
	SWIFT=$(SWIFT) scripts/fuzz --no-build 15
	$(PHASE) "system-test"
	@$(MAKE) --no-print-directory system-test BIN_DIR="$$($(TEST_RELEASE_BIN))" DEB_DIR=packages
	$(PHASE) "desktop-next-test"
	@echo "== the desktops of Debian testing and unstable (GNOME 50 and 51, KWin 6.7)"
	@$(MAKE) --no-print-directory desktop-next-test DESKTOP_NEXT_REFRESH=
	@scripts/phase-times report

# The parts of make test that run side by side (make -j, from make test).
TEST_RELEASE_BIN = $(SWIFT) build --scratch-path $(TEST_RELEASE) -c release --show-bin-path
BESIDE = chrt --idle 0
.PHONY: test-swift test-release test-fuzz-build test-desktop-chroots
test-swift:
	ORIENTD_PYTHON=$$(scripts/python-with-numpy) scripts/run-swift-tests -- \
		$(SWIFT) test --skip-build --no-parallel --filter '$(UNIT_FILTER)'
	scripts/run-swift-tests -- $(SWIFT) test --skip-build --no-parallel --skip '$(UNIT_FILTER)'
test-release:
	@scripts/phase-times run "release build" $(TEST_LOGS)/release.log -- \
		$(BESIDE) $(MAKE) --no-print-directory release RELEASE_SCRATCH=$(TEST_RELEASE)
test-fuzz-build:
	@scripts/phase-times run "fuzz targets' build" $(TEST_LOGS)/fuzz-build.log -- \
		env SWIFT=$(SWIFT) $(BESIDE) scripts/fuzz --build
test-desktop-chroots:
	@scripts/phase-times run "desktop chroots" $(TEST_LOGS)/desktop-chroots.log -- \
		$(BESIDE) /usr/bin/python3 scripts/desktop-next-tests --chroots-only $(DESKTOP_NEXT_SUITES) \
		$(if $(DESKTOP_NEXT_REFRESH),--refresh)

# make install as a packager runs it: from a git archive of the checkout (no .build/) with the binaries
# built beside it, man pages by help2man and by the generate-manual tool, and stopping before it touches
# anything when it cannot make them (scripts/install-tests; one PASS/FAIL line per check).
install-test: deps man-tool
	$(SWIFT) build --product orientd
	$(SWIFT) build --product orientctl
	@echo "== make install from a source tree without .build"
	/usr/bin/python3 scripts/install-tests --bin-dir $$($(SWIFT) build --show-bin-path)

# The system tests (scripts/system-tests, as root): the release build installed by make install, then
# the .deb by apt-get, then Debian's iio-sensor-proxy swapped for orientd-sensorproxy and back with apt-get,
# each in a booted systemd container; one PASS/FAIL line per check. BIN_DIR=DIR: the release binaries built there;
# DEB_DIR=DIR: the two .deb files of those binaries, made there already (make test passes package-test's packages/);
# without it make-deb makes them.
DEB_DIR ?=
system-test: deps $(if $(BIN_DIR),,release) man-tool
	@echo "== system tests under systemd (make install, then the .deb)"
	@bin="$(or $(BIN_DIR),$$($(SWIFT) build -c release --show-bin-path))" && status=0 && \
		if [ -n "$(DEB_DIR)" ]; then out="$(DEB_DIR)"; else out=$$(mktemp -d) && \
			{ scripts/make-deb --bin-dir "$$bin" --output "$$out" || status=1; }; fi && \
		version=$$("$$bin/orientd" --version) && \
		deb=$$(find "$$out" -maxdepth 1 -name "orientd_$${version}_$$(dpkg --print-architecture).deb") && \
		proxy=$$(find "$$out" -maxdepth 1 -name "orientd-sensorproxy_$${version}_all.deb") && \
		{ scripts/system-tests --bin-dir "$$bin" $${deb:+--deb "$$deb"} $${proxy:+--sensorproxy-deb "$$proxy"} || \
			status=1; } ; \
		[ -n "$(DEB_DIR)" ] || rm -rf "$$out"; exit $$status

# swift format's check, and the licence header at the top of every source file and script.
lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Benchmarks Fuzz Package.swift Package@swift-6.0.swift
	@scripts/check-license-headers

format:
	$(SWIFT) format format --in-place --recursive Sources Tests Benchmarks Fuzz Package.swift Package@swift-6.0.swift

bench:
	$(SWIFT) package --disable-sandbox benchmark

# iio-sensor-proxy and the static release orientd side by side on one emulated accelerometer: memory, CPU,
# wake-ups and latency, poll mode, then orientd alone buffered (scripts/side-by-side.py; figures, not a test).
side-by-side: deps release
	/usr/bin/python3 scripts/side-by-side.py $$($(SWIFT) build -c release --show-bin-path)/orientd

# iio-sensor-proxy and the release orientd, in turn, on one emulated light sensor held by monitor-sensor: wake-ups
# and CPU unclaimed, claimed and released, and a change's latency (scripts/light-side-by-side; figures, not a test).
side-by-side-light: deps release
	/usr/bin/python3 scripts/light-side-by-side $$($(SWIFT) build -c release --show-bin-path)/orientd

# Event latency of the release daemon on an emulated accelerometer (figures, not a test).
latency: deps
	$(SWIFT) build -c release --product orientd
	scripts/latency.py $$($(SWIFT) build -c release --show-bin-path)/orientd --changes 200

# The libFuzzer targets of Fuzz/ with AddressSanitizer, SECONDS seconds each (scripts/fuzz).
SECONDS ?= 60
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz $(SECONDS)

clean:
	rm -rf .build .build-fuzz

# Install: a release build, the binaries, systemd units, udev rule, sysusers file, man pages,
# completions and the default configuration (scripts/install says where). PREFIX=/usr/local for
# a source install; a package uses PREFIX=/usr DESTDIR=staging. BIN_DIR=DIR installs binaries
# already built there instead of building. `make uninstall` removes exactly what was installed.
PREFIX ?= /usr/local
DESTDIR ?=
BIN_DIR ?=
.PHONY: install uninstall

install:
	SWIFT=$(SWIFT) scripts/install install --prefix "$(PREFIX)" --destdir "$(DESTDIR)" $(if $(BIN_DIR),--bin-dir "$(BIN_DIR)")

uninstall:
	scripts/install uninstall --prefix "$(PREFIX)" --destdir "$(DESTDIR)"

# The Debian packages orientd_<version>_<arch>.deb and orientd-sensorproxy_<version>_all.deb (which
# replaces iio-sensor-proxy) in the repository's root, from the release build (BIN_DIR=DIR: binaries
# already built there); scripts/make-deb says what they hold.
.PHONY: deb packages arch rpm package-test
deb: $(if $(BIN_DIR),,release) man-tool
	scripts/make-deb --bin-dir "$(or $(BIN_DIR),$$($(SWIFT) build -c release --show-bin-path))"

# Every package in packages/: the two .deb files, the Arch packages (makepkg --nodeps on
# packaging/arch/PKGBUILD) and the RPMs (rpmbuild --nodeps on packaging/rpm/orientd.spec, then rpmlint),
# from a git archive of the checkout and the release binaries (BIN_DIR=DIR: built there); `make arch` and
# `make rpm` build one kind. scripts/make-packages says how.
packages arch rpm: deps $(if $(BIN_DIR),,release) man-tool
	scripts/make-packages --bin-dir "$(or $(BIN_DIR),$$($(SWIFT) build -c release --show-bin-path))" \
		$(filter-out packages,$@)

# The Debian source package (debian/, with the dependencies' sources, at the versions Package.resolved pins, put in
# vendor/ by the script) built by dpkg-buildpackage in a clean chroot of Debian unstable (swiftlang 6.2.3) made with
# mmdebstrap, without network, then checked by lintian: packages/deb-source/sid/ (scripts/make-deb-source).
# SUITES=trixie builds on Debian 13 (swiftlang 6.0.3), which needs swift-log 1.11.0 or older:
# ORIENTD_VENDOR_SWIFT_LOG=DIR, a checkout of it. deb-source-test installs what the unstable build made in a booted
# Debian unstable container: the system tests of the .deb, and iio-sensor-proxy swapped for orientd-sensorproxy and
# back (scripts/deb-source-tests, as root).
SUITES ?= unstable
.PHONY: deb-source deb-source-test
deb-source: deps
	scripts/make-deb-source $(SUITES)

deb-source-test: deb-source
	scripts/deb-source-tests --suite $(firstword $(subst unstable,sid,$(SUITES)))

# Each package's file list against make install's manifest, and the replacement's metadata and scripts
# (scripts/package-tests; one PASS/FAIL line per check). make test runs it.
package-test: packages
	/usr/bin/python3 scripts/package-tests --dir packages \
		--bin-dir "$(or $(BIN_DIR),$$($(SWIFT) build -c release --show-bin-path))"

# orientd's GNOME Shell extension in the gnome-shell of Debian testing and unstable (GNOME 50 and 51: Wayland only,
# run headless) and its KWin script in testing's KWin (6.7), each in a chroot made once with mmdebstrap and kept in
# .build-chroots/ (scripts/desktop-next-tests, as root; one PASS/FAIL line per check). GNOME_NEXT_SUITES and
# KWIN_NEXT_SUITES choose the suites (KWIN_NEXT_SUITES=none: no KWin run); DESKTOP_NEXT_REFRESH=1 makes the chroots
# again.
GNOME_NEXT_SUITES ?= testing unstable
KWIN_NEXT_SUITES ?= testing
.PHONY: desktop-next-test
DESKTOP_NEXT_SUITES = $(foreach suite,$(GNOME_NEXT_SUITES),--suite $(suite)) \
	$(foreach suite,$(KWIN_NEXT_SUITES),--kwin-suite $(suite))
desktop-next-test: deps
	$(SWIFT) build --product orientd
	$(SWIFT) build --product orientctl
	/usr/bin/python3 scripts/desktop-next-tests --bin-dir $$($(SWIFT) build --show-bin-path) \
		$(DESKTOP_NEXT_SUITES) $(if $(DESKTOP_NEXT_REFRESH),--refresh)

# Which devices systemd/61-orientd.rules, and orientd-sensorproxy's 61-orientd-sensorproxy.rules beside it,
# start orientd for: umockdev's devices through udevadm test (scripts/udev-rules-tests, as root). make test runs it.
.PHONY: udev-test
udev-test: deps
	/usr/bin/python3 scripts/udev-rules-tests

# The figure sheet (docs/performance.md): the release daemon on an emulated accelerometer.
.PHONY: perf
perf: deps
	$(SWIFT) build -c release --product orientd
	scripts/perf.py $$($(SWIFT) build -c release --show-bin-path)/orientd

# The reliability scenarios (docs/reliability.md), the end-to-end suites that hold them, against the release daemon
# (ORIENTD_BIN; the release orientctl beside it plays the clients that are killed): protocol torture, a slow and a lagging consumer, churn, SIGKILL rounds, a full disk, signals,
# hotplug, and sensor faults, silences and clock jumps. Each runs ORIENTD_RELIABILITY_RUNS times (1 unless set;
# `ORIENTD_RELIABILITY_RUNS=20 make reliability` for a long run), each run with seeds of its own. make test runs the
# same suites once, against the debug daemon.
RELIABILITY_SUITES = DaemonTortureTests|DaemonSlowClientTests|DaemonChurnTests|DaemonCrashSafetyTests|DaemonSignalTests|DaemonHotplugTests|DaemonSensorFaultTests
.PHONY: reliability test-scripts
reliability: deps
	$(SWIFT) build -c release --product orientd
	$(SWIFT) build -c release --product orientctl
	$(SWIFT) build --build-tests
	ORIENTD_BIN=$$($(SWIFT) build -c release --show-bin-path)/orientd scripts/run-swift-tests -- \
		$(SWIFT) test --skip-build --no-parallel --filter '/($(RELIABILITY_SUITES))/'

# The tests of scripts/orientd_harness, the harness of the perf, latency, demo and side-by-side scripts (no build
# needed).
test-scripts:
	/usr/bin/python3 -m unittest discover -s scripts/tests
