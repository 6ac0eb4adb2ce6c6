//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/*
 * The client side of `make perf`'s fan-out figure: N generating connections to the daemon,
 * read with epoll from one C process, so that the reading costs little next to the daemon's
 * sending.
 *
 *   fanout-reader SOCKET N
 *
 * Connects N times, sends `begin` on each and waits for every reply, then prints "ready".
 * From then on, for every change it prints "first NS" when the first connection has read a
 * `device` event and "last NS" when all N have, with CLOCK_MONOTONIC nanoseconds (the clock of
 * Python's time.monotonic_ns()). Exits 1 with a message if the daemon closes a connection.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void fail(const char *what) {
    fprintf(stderr, "fanout-reader: %s: %s\n", what, strerror(errno));
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: fanout-reader SOCKET N\n");
        return 2;
    }
    const char *path = argv[1];
    int count = atoi(argv[2]);
    if (count <= 0) {
        fprintf(stderr, "fanout-reader: N must be a positive number\n");
        return 2;
    }
    int *fds = calloc(count, sizeof(int));
    char *seen = calloc(count, 1);
    int epoll = epoll_create1(EPOLL_CLOEXEC);
    if (!fds || !seen || epoll < 0) fail("setup");

    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strncpy(address.sun_path, path, sizeof(address.sun_path) - 1);
    static const char begin[] = "{\"id\":1,\"method\":\"begin\"}\n";
    char buffer[65536];
    for (int i = 0; i < count; i++) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) fail("socket");
        if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) fail("connect");
        if (send(fd, begin, sizeof(begin) - 1, MSG_NOSIGNAL) != (ssize_t)(sizeof(begin) - 1)) fail("send");
        /* The reply to begin, then whatever state events follow it, are read below. */
        ssize_t got = recv(fd, buffer, sizeof(buffer), 0);
        if (got <= 0) fail("the reply to begin");
        fds[i] = fd;
        struct epoll_event event = {.events = EPOLLIN, .data.u32 = (unsigned)i};
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) != 0) fail("epoll_ctl");
    }
    printf("ready\n");
    fflush(stdout);

    struct epoll_event events[256];
    int arrived = 0;
    for (;;) {
        int ready = epoll_wait(epoll, events, 256, -1);
        if (ready < 0) {
            if (errno == EINTR) continue;
            fail("epoll_wait");
        }
        long long at = now_ns();
        for (int e = 0; e < ready; e++) {
            unsigned i = events[e].data.u32;
            ssize_t got = recv(fds[i], buffer, sizeof(buffer) - 1, MSG_DONTWAIT);
            if (got == 0) {
                fprintf(stderr, "fanout-reader: the daemon closed connection %u\n", i);
                return 1;
            }
            if (got < 0) continue;
            buffer[got] = 0;
            if (seen[i] || !strstr(buffer, "\"event\":\"device\"")) continue;
            seen[i] = 1;
            if (++arrived == 1) printf("first %lld\n", at);
            if (arrived == count) {
                printf("last %lld\n", at);
                arrived = 0;
                memset(seen, 0, count);
            }
            fflush(stdout);
        }
    }
}
