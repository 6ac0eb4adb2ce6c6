import Testing

@testable import orientd

/// Which mappings `orientd run` gives back once it is set up: private, read-only file mappings only.
@Suite struct StartupPagesTests {
    @Test(arguments: [
        ("5581a0a00000-5581a1380000 r-xp 00400000 fd:01 1234   /usr/local/bin/orientd\n", true),
        ("7f1c2b000000-7f1c2b028000 r--p 00000000 fd:01 99   /usr/lib/x86_64-linux-gnu/libc.so.6\n", true),
        ("5581a1380000-5581a1480000 rw-p 00f80000 fd:01 1234   /usr/local/bin/orientd\n", false),
        ("7f1c2b300000-7f1c2b301000 r--s 00000000 00:05 7   /memfd:x (deleted)\n", false),
        ("7ffd6b9a0000-7ffd6b9c1000 rw-p 00000000 00:00 0      [stack]\n", false),
        ("7ffd6b9f8000-7ffd6b9fa000 r-xp 00000000 00:00 0      [vdso]\n", false),
        ("7f1c2b400000-7f1c2b401000 ---p 00000000 00:00 0\n", false),
    ])
    func onlyPrivateReadOnlyFileMappings(line: String, released: Bool) throws {
        let mapping = try #require(StartupPages.Mapping(line))
        #expect(mapping.isReadOnlyFile == released, "\(line)")
    }

    @Test func theRangeIsParsed() throws {
        let mapping = try #require(StartupPages.Mapping("1000-3000 r-xp 00000000 fd:01 1 /bin/x\n"))
        #expect(mapping.start == 0x1000 && mapping.end == 0x3000 && mapping.path == "/bin/x")
        #expect(StartupPages.Mapping("garbage\n") == nil)
        #expect(StartupPages.Mapping("3000-1000 r-xp 00000000 fd:01 1 /bin/x\n") == nil)
    }

    /// In this process: the call advises something and the process goes on working (its code is read back in).
    @Test func releasingKeepsTheProcessWorking() {
        #expect(StartupPages.release() > 0)
        #expect([3, 1, 2].sorted() == [1, 2, 3])
    }
}
