#!/usr/bin/env python3
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

"""More classifier scenarios on top of the evaluation's simulator (orient_sim.py), and the figures.

The simulator's public scenarios turn the device while it is held 5-55 degrees from vertical, with
minimum-jerk turns. These add turns that end as real hand-held ones often do (handsettle, handtilted,
handtremor, halfsettle: see hand_turns), and turns while the screen is reclined further back, as when
reading in bed or holding the device low: reclined50, reclined60 and reclined70 turn it by 90 or 180 degrees, six times, with the screen
tilted back between 5 degrees below the named angle and the angle itself (hand sway included), so
that even reclined70 stays below the default face-up angle (FaceUpAngle=70). The traces and their
truth files have the simulator's format, so orient_eval.py scores them like its own.

Usage:
  classifier_scenarios.py generate --out DIR [--rate 25] [--reps 3] [--seed 1] [--scenarios ...]
                                   [--rescale FACTOR@SECONDS]
      writes DIR/<scenario>-<n>.csv and .truth.json for the scenarios named (these and the
      simulator's own, e.g. rotate,reclined50,reclined60,reclined70). --rescale multiplies every
      sample from SECONDS on by FACTOR, as a driver that changes its scale on resume would; the
      truth is unchanged, since the device moves the same.
  classifier_scenarios.py figures --orientd PATH [--rates 10,25,100] [--reps 10]
      generates upright and reclined turns, face-up and face-down scenarios at each rate, scores
      `orientd classify` on them with orient_eval.py and prints one line per rate and scenario:
      p50/p95 latency after the motion ends, false and missed rotations, wrong device states,
      face-up and face-down latency. Exit status 1 when a target of CLASSIFIER.md fails.

The simulator is found in $ORIENTD_EVAL_DIR, else shared/eval beside the repository. Needs numpy.
"""
import argparse, json, math, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EVAL_DIR = os.environ.get("ORIENTD_EVAL_DIR") or os.path.join(HERE, "..", "..", "shared", "eval")
if not os.path.isfile(os.path.join(EVAL_DIR, "orient_sim.py")):
    sys.exit(f"orient_sim.py is not in {EVAL_DIR}; set ORIENTD_EVAL_DIR to the folder of the evaluation scripts")
sys.path.insert(0, EVAL_DIR)
import numpy as np  # noqa: E402
import orient_sim as sim  # noqa: E402

# How far below the named angle the screen may lean while reclined (sway and tremor included).
RECLINE_SPREAD = 5.0


class CalibratedTrace(sim.Trace):
    """The simulator's sensor (noise, quantisation, jitter) with a calibrated offset: at a steep recline a
    2 % g offset alone moves the reading by 3-6 degrees, across the face-up angle."""

    def samples(self, rng, noise_g=0.012, bias_g=0.005, lsb_g=0.001):
        return super().samples(rng, noise_g=noise_g, bias_g=bias_g, lsb_g=lsb_g)


def reclined_turns(angle, spread=RECLINE_SPREAD, shortest=0.3, headroom=3.0, trace=CalibratedTrace):
    """Six deliberate turns (90 or 180 degrees, minimum-jerk, `shortest`-1.0 s) with holds of 2.5-4 s, the
    screen reclined between angle - spread and angle - headroom degrees from vertical, sway and tremor on top,
    read by `trace`'s sensor."""

    def scenario(rng, fs):
        segs = 6
        hold = [rng.uniform(2.5, 4.0) for _ in range(segs + 1)]
        mdur = [rng.uniform(shortest, 1.0) for _ in range(segs)]
        tr = trace(sum(hold) + sum(mdur), fs, rng)
        t = tr.t
        # Sway and tremor add at most 1.5 + 0.75 degrees either way: a headroom of 3 degrees leaves room for both.
        low, high = angle - spread, angle - headroom
        cur = rng.randrange(4)
        tilt0 = rng.uniform(low, high)
        psi = np.full(len(t), cur * 90.0)
        tilt = np.full(len(t), tilt0)
        tc = hold[0]
        tr.expect[t < tc] = cur
        for i in range(segs):
            step = rng.choice([90, -90, 90, -90, 180])
            new = (cur + step // 90) % 4
            t0, t1 = tc, tc + mdur[i]
            s = sim.minjerk((t - t0) / (t1 - t0))
            base = cur * 90.0
            psi = np.where(t >= t0, base + step * s, psi)
            newtilt = rng.uniform(low, high)
            tilt = np.where(t >= t0, tilt0 + (newtilt - tilt0) * s, tilt)
            # The time the turn crosses the bisector (45 degrees past its start), as orient_sim does.
            grid = np.linspace(0, 1, 2001)
            sc = np.interp(45.0 / abs(step), sim.minjerk(grid), grid)
            tr.rot_events.append((t0, t0 + sc * (t1 - t0), t1, cur, new))
            nxt = t1 + hold[i + 1]
            tr.expect[(t >= t1) & (t < nxt)] = new
            psi = np.where(t >= t1, new * 90.0 if step != 180 else base + 180.0, psi)
            cur, tilt0, tc = new, newtilt, nxt
        tr.psi[:] = psi
        tr.tilt[:] = tilt
        tr.expect_dev[:] = tr.expect
        tr.add_sway(rng)
        return tr

    scenario.__doc__ = f"Turns while reclined {angle - spread:.0f}-{angle:.0f} degrees from vertical."
    return scenario


def hand_turns(ending, steps=(90, -90, 90, -90, 180)):
    """Six deliberate turns (`steps` degrees, 0.3-1.0 s) with holds of 2.5-4 s, ended as real hand-held turns often
    are and the simulator's minimum-jerk turns are not:

    - "settle": the hand turns 85-95 % of the way in the turn's time and stops; the arm then drifts the rest of the
      way over 0.4-0.6 s (easing out). The motion is taken to end where the turning stops, as a person watching,
      or a gyroscope's speed, marks it: what follows is a slow drift of a few degrees;
    - "tilted": it starts held 5-20 degrees from vertical and ends reclined 30-50 degrees;
    - "tremor": the hand trembles as it stops, 3-5 degrees at 8-12 Hz about both axes and 0.05-0.2 g of linear
      acceleration, dying out over 0.5-0.8 s.
    Sway and the simulator's tremor on top, read by the simulator's sensor."""

    def scenario(rng, fs):
        segs = 6
        hold = [rng.uniform(2.5, 4.0) for _ in range(segs + 1)]
        mdur = [rng.uniform(0.3, 1.0) for _ in range(segs)]
        drift = [rng.uniform(0.4, 0.6) if ending == "settle" else 0.0 for _ in range(segs)]
        tr = sim.Trace(sum(hold) + sum(mdur) + sum(drift), fs, rng)
        t = tr.t
        cur = rng.randrange(4)
        tilt0 = rng.uniform(5, 20) if ending == "tilted" else rng.uniform(5, 55)
        psi = np.full(len(t), cur * 90.0)
        tilt = np.full(len(t), tilt0)
        shake = np.zeros((len(t), 2))
        tc = hold[0]
        tr.expect[t < tc] = cur
        grid = np.linspace(0, 1, 2001)
        for i in range(segs):
            step = rng.choice(steps)
            new = (cur + step // 90) % 4
            base = cur * 90.0
            t0, t1 = tc, tc + mdur[i]
            share = rng.uniform(0.85, 0.95) if ending == "settle" else 1.0
            turned = share * sim.minjerk((t - t0) / (t1 - t0))
            if ending == "settle":
                eased = np.clip((t - t1) / drift[i], 0, 1)
                turned = np.where(t < t1, turned, share + (1 - share) * (1 - (1 - eased) ** 2))
            # The time the turn crosses the bisector (45 degrees past its start).
            tcross = t0 + np.interp(45.0 / abs(step) / share, sim.minjerk(grid), grid) * (t1 - t0)
            psi = np.where(t >= t0, base + step * turned, psi)
            newtilt = rng.uniform(30, 50) if ending == "tilted" else rng.uniform(5, 55)
            tilt = np.where(t >= t0, tilt0 + (newtilt - tilt0) * np.clip(turned, 0, 1), tilt)
            if ending == "tremor":
                amplitude = rng.uniform(3, 5)
                after = np.clip(t - t1, 0, None)
                envelope = np.where(t >= t1, np.exp(-3 * after / rng.uniform(0.5, 0.8)), 0)
                for axis in range(2):
                    shake[:, axis] += amplitude * envelope * np.sin(
                        2 * math.pi * rng.uniform(8, 12) * after + rng.uniform(0, 6.3))
                push = rng.uniform(0.05, 0.2) * sim.G
                for axis in range(3):
                    tr.alin[:, axis] += push * envelope * np.sin(
                        2 * math.pi * rng.uniform(8, 12) * after + rng.uniform(0, 6.3))
            tr.rot_events.append((t0, tcross, t1, cur, new))
            nxt = t1 + drift[i] + hold[i + 1]
            tr.expect[(t >= t1) & (t < nxt)] = new
            psi = np.where(t >= t1 + drift[i], new * 90.0 if step != 180 else base + 180.0, psi)
            cur, tilt0, tc = new, newtilt, nxt
        tr.psi[:] = psi + shake[:, 0]
        tr.tilt[:] = tilt + shake[:, 1]
        tr.expect_dev[:] = tr.expect
        tr.add_sway(rng)
        return tr

    scenario.__doc__ = f"Hand-held turns ending with {ending}."
    return scenario


SCENARIOS = dict(sim.SCENARIOS)
SCENARIOS.update({f"reclined{a}": reclined_turns(a) for a in (50, 60, 70)})
# A tablet on a lap or a stand: reclined 50-68 degrees (sway and tremor on top, up to 70), quarter and half turns
# of 0.4-1 s, read by the simulator's own sensor (an offset of up to 2 % g: 3 degrees more or less at this tilt).
SCENARIOS["steep"] = reclined_turns(68, spread=18, shortest=0.4, headroom=0.0, trace=sim.Trace)
# Real hand-held turns end less neatly than minimum-jerk ones: settling slowly, reclined further, or trembling; and
# half turns alone, which settle the slowest (the opposite pose is the nearest only past 135 degrees).
SCENARIOS.update({f"hand{ending}": hand_turns(ending) for ending in ("settle", "tilted", "tremor")})
SCENARIOS["halfsettle"] = hand_turns("settle", steps=(180,))


def generate(out, rate, reps, seed, names, rescale=None):
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        sys.exit(f"unknown scenario(s): {', '.join(unknown)}; known: {', '.join(SCENARIOS)}")
    made = sim.generate(out, rate, reps, seed, names, table=SCENARIOS)
    if rescale:
        for stem in made:
            rescale_trace(stem + ".csv", *rescale)
    return made


def rescale_trace(path, factor, start):
    """Multiplies the samples of the trace at `path` from time `start` on by `factor`, in place."""
    with open(path) as f:
        lines = f.readlines()
    with open(path, "w") as f:
        for line in lines:
            if line[:1].isdigit():
                t, *axes = (float(v) for v in line.split(","))
                if t >= start:
                    axes = [v * factor for v in axes]
                line = f"{t:.6f}," + ",".join(f"{v:.6g}" for v in axes) + "\n"
            f.write(line)


def parse_rescale(text):
    """'FACTOR@SECONDS' as (factor, seconds)."""
    try:
        factor, start = (float(v) for v in text.split("@"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--rescale takes FACTOR@SECONDS, e.g. 1000@1.5; got {text!r}")
    if not factor > 0:
        raise argparse.ArgumentTypeError(f"the factor of --rescale must be above 0; got {factor}")
    return factor, start


FIGURE_SCENARIOS = ["rotate", "reclined50", "reclined60", "reclined70", "steep", "table", "facedown"]


def figures(orientd, rates, reps, seed):
    if not (os.path.isfile(orientd) and os.access(orientd, os.X_OK)):
        sys.exit(f"{orientd} is not an executable; build it first (swift build -c release --product orientd)")
    evaluator = os.path.join(EVAL_DIR, "orient_eval.py")
    failed = False
    print(f"{'rate':>4s} {'scenario':10s} {'turns':>5s} {'p50 ms':>6s} {'p95 ms':>6s} {'false':>5s} {'missed':>6s} "
          f"{'wrong dev':>9s} {'face p50 ms':>11s}")
    for rate in rates:
        with tempfile.TemporaryDirectory(prefix="orientd-figures-") as folder:
            generate(folder, rate, reps, seed, FIGURE_SCENARIOS)
            table = os.path.join(folder, "figures.json")
            scored = subprocess.run([sys.executable, evaluator, "--traces", folder, "--cmd",
                                     f"{orientd} classify {{trace}}", "--json", table],
                                    capture_output=True, text=True)
            if scored.returncode not in (0, 1) or not os.path.exists(table):
                sys.exit(f"orient_eval.py failed: {scored.stderr.strip()[-400:]}")
            failed |= scored.returncode != 0
            for line in scored.stdout.splitlines():
                if line.startswith("FAIL"):
                    print(f"{rate:4d} {line}")
            rows = json.load(open(table))
        for name in FIGURE_SCENARIOS:
            row = rows[name]
            false = round(row["spurious_per_hour"] * row["hours"])
            p50, p95 = row.get("latency_after_motion_p50_ms"), row.get("latency_after_motion_p95_ms")
            face = row.get("face_up_p50_ms", row.get("face_down_p50_ms"))
            print(f"{rate:4d} {name:10s} {row.get('rotations', 0):5d} {fmt(p50):>6s} {fmt(p95):>6s} {false:5d} "
                  f"{row['missed']:6d} {row['device_spurious']:9d} {fmt(face):>11s}")
    return 1 if failed else 0


def fmt(value):
    return "-" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.0f}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate", help="write traces and their truth files")
    g.add_argument("--out", required=True)
    g.add_argument("--rate", type=float, default=25)
    g.add_argument("--reps", type=int, default=3)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--scenarios", default="reclined50,reclined60,reclined70")
    g.add_argument("--rescale", type=parse_rescale, metavar="FACTOR@SECONDS",
                   help="multiply every sample from SECONDS on by FACTOR (a change of scale)")
    f = sub.add_parser("figures", help="score orientd classify on upright and reclined turns")
    f.add_argument("--orientd", required=True, help="the orientd executable")
    f.add_argument("--rates", default="10,25,100")
    f.add_argument("--reps", type=int, default=10)
    f.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    if a.cmd == "generate":
        made = generate(a.out, a.rate, a.reps, a.seed, [s for s in a.scenarios.split(",") if s], a.rescale)
        print(f"wrote {len(made)} traces to {a.out}")
        return 0
    try:
        rates = [int(r) for r in a.rates.split(",") if r]
    except ValueError:
        sys.exit(f"--rates takes whole numbers separated by commas, e.g. 10,25,100; got {a.rates!r}")
    return figures(a.orientd, rates, a.reps, a.seed)


if __name__ == "__main__":
    sys.exit(main())
