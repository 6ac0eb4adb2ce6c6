##===----------------------------------------------------------------------===##
##
## This source file is part of the orientd open source project
##
## Copyright (c) 2026 the orientd project authors
## Licensed under Apache License v2.0
##
## See LICENSE for license information
##
## SPDX-License-Identifier: Apache-2.0
##
##===----------------------------------------------------------------------===##

"""The protocol torture corpus, shared with the Swift tests (Tests/Corpus/protocol-torture.json, described in it),
and random lines drawn from it with what the daemon must answer to each (docs/protocol.md)."""
import json
import os

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Corpus",
                      "protocol-torture.json")


def load(path=CORPUS):
    """The corpus with its lines as bytes."""
    with open(path, encoding="utf-8") as f:
        corpus = json.load(f)
    if sum(part["percent"] for part in corpus["mix"]) != 100:
        raise ValueError(f"{path}: the mix does not add up to 100 %")
    return corpus


def as_bytes(text):
    """A corpus line's bytes: each character is one byte (Latin-1)."""
    return text.encode("latin-1")


def fill(template, ident):
    return as_bytes(template.replace("ID", str(ident)))


def not_json_lines(corpus):
    part = corpus["notJSON"]
    return [as_bytes(line) for line in part["lines"]] + [b"[" * n + b"]" * n for n in part["nestedArrays"]]


class Lines:
    """Random lines of the corpus: line(rng, ident) -> (bytes, expectation), the expectation one of
    ("error", code, id or None), ("result", id), ("any",), ("one-of", ids)."""

    def __init__(self, corpus=None):
        self.corpus = corpus or load()
        self.not_json = not_json_lines(self.corpus)
        self.byte_values = [b for b in range(256) if b != 10]  # anything but a newline

    def line(self, rng, ident):
        c = self.corpus
        draw, kind = rng.random() * 100, c["mix"][-1]["kind"]
        for part in c["mix"]:
            if draw < part["percent"]:
                kind = part["kind"]
                break
            draw -= part["percent"]
        if kind == "wrongRequests":
            request = rng.choice(c["wrongRequests"])
            return fill(request["line"], ident), ("error", request["code"], ident if request["echoesID"] else None)
        if kind == "notJSON":
            return rng.choice(self.not_json), ("error", c["notJSON"]["code"], None)
        if kind == "goodRequests":
            template = rng.choice(c["goodRequests"])
            return fill(template, ident), ("result", f"s{ident}" if '"sID"' in template else ident)
        if kind == "randomBytes":  # never a JSON object: the first byte is not `{`
            part = c["randomBytes"]
            data = as_bytes(part["first"]) + bytes(rng.choice(self.byte_values)
                                                   for _ in range(rng.randint(0, part["maxLength"])))
            return data, ("error", part["code"], None)
        if kind == "mangledRequests":  # a read-only request with bytes changed, added or removed: some reply
            part = c["mangledRequests"]
            data = bytearray(fill(rng.choice(part["lines"]), ident))
            for _ in range(rng.randint(*part["changes"])):
                at = rng.randrange(len(data))
                operation = rng.randrange(3)
                byte = rng.choice(self.byte_values)
                if operation == 0:
                    data[at] = byte
                elif operation == 1:
                    data.insert(at, byte)
                elif len(data) > 1:
                    del data[at]
            return bytes(data), ("any",)
        if kind == "duplicateKeys":  # rejected or the last value taken, but answered
            return fill(rng.choice(c["duplicateKeys"]), ident), ("one-of", [ident, None])
        if kind == "nestedParams":
            part = c["nestedParams"]
            depth = rng.choice(part["depths"])
            inner = "[" * depth + "]" * depth if rng.random() < 0.5 else '{"a":' * depth + "1" + "}" * depth
            return fill(part["line"].replace("NESTED", inner), ident), ("error", part["code"], ident)
        part = c["oddNumbers"]
        return fill(part["line"].replace("NUMBER", rng.choice(part["numbers"])), ident), ("error", part["code"], ident)


def accepts(message, expectation):
    """Whether a reply is what the line must get: a reply (not an event) with a result or an error, not both."""
    if message.is_event or ("result" in message) == ("error" in message):
        return False
    code = message.get("error", {}).get("code")
    kind = expectation[0]
    if kind == "error":
        return code == expectation[1] and message.get("id") == expectation[2] and bool(message["error"].get("message"))
    if kind == "result":
        return code is None and message.get("id") == expectation[1]
    if kind == "one-of":
        return message.get("id") in expectation[1]
    return True
