import Glibc
import Testing

/// The parent of every suite that creates a `Testbed`: serialised, so no two testbeds exist at once (umockdev sets
/// the process-wide `UMOCKDEV_DIR`). `.serialized` applies to every suite nested in it, including those declared in
/// extensions in other files; suites outside it still run in parallel with it.
@Suite(.serialized) package struct EmulatedDeviceTests {}
