import assert from "node:assert/strict";
import { test } from "node:test";
import { lagLimitS } from "@/lib/media-node-protocol";
import { LadderGovernor, RESTORE_AFTER_MS, type GovernorDecision } from "@/media-node/ladder-governor";

/** The ladder: a 720p30 source with 480p and 360p (v1, v2). */
const renditions = [
  { variant: 1, name: "480p", width: 854, height: 480, fps: 30 },
  { variant: 2, name: "360p", width: 640, height: 360, fps: 30 },
];
const source = { width: 1280, height: 720, fps: 30 };
const governor = () => new LadderGovernor({ segmentS: 2, renditions, source });

/**
 * One reading a second from `fromS` to `toS` (seconds), with the lag and CPU given for each
 * second; the decisions that were not "keep", with their second. A ladder that changes
 * restarts, so the lag given stops applying: `changes` stops after that many.
 */
function run(
  g: LadderGovernor,
  fromS: number,
  toS: number,
  lagAt: (s: number) => number | undefined,
  cpuAt: (s: number) => number = () => 0.5,
  changes = Infinity,
) {
  const decisions: { s: number; decision: GovernorDecision }[] = [];
  for (let s = fromS; s <= toS; s++) {
    const decision = g.observe({ at: s * 1000, lagS: lagAt(s), cpuBusy: cpuAt(s) });
    if (decision.action === "keep") continue;
    decisions.push({ s, decision });
    if (decisions.length === changes) break;
  }
  return decisions;
}

test("the lag limit is two segments, at least 4 s", () => {
  assert.equal(lagLimitS(2), 4);
  assert.equal(lagLimitS(1), 4);
  assert.equal(lagLimitS(4), 8);
});

test("a ladder that keeps up, or catches up quickly after its start, keeps every rendition", () => {
  const g = governor();
  assert.deepEqual(
    run(g, 0, 120, (s) => 1 + (s % 3) * 0.3),
    [],
  );
  // A start that read a backlog: 9 s behind, catching up at 1.5 s a second.
  const started = governor();
  assert.deepEqual(
    run(started, 0, 60, (s) => Math.max(1, 9 - 1.5 * s)),
    [],
  );
  // Not measured yet (a process starting): nothing to judge.
  assert.deepEqual(
    run(governor(), 0, 30, () => undefined),
    [],
  );
  assert.deepEqual(g.running, [1, 2]);
  assert.equal(g.lagging(1.2), false);
});

test("a ladder that falls behind drops the costliest rendition first, within seconds", () => {
  const g = governor();
  // 10 % short of real time: the lag grows 0.1 s a second from 1 s.
  const decisions = run(g, 0, 60, (s) => 1 + 0.1 * s, undefined, 1);
  assert.deepEqual(decisions[0].decision, { action: "drop", variants: [1] }, "480p only: dropping it leaves room enough");
  assert.ok(decisions[0].s <= 35, `noticed at ${decisions[0].s} s`);
  assert.deepEqual(g.running, [2]);
  assert.deepEqual(
    g.dropped.map((r) => r.name),
    ["480p"],
  );
  assert.equal(g.lagging(0.5), true, "running without a rendition is lagging");
});

test("a ladder far short of real time drops as many renditions as its pace says, at once", () => {
  const g = governor();
  // Half of real time: the lag grows half a second every second.
  const [first, ...rest] = run(g, 0, 30, (s) => 1 + 0.5 * s);
  assert.deepEqual(first.decision, { action: "drop", variants: [1, 2] });
  assert.ok(first.s <= 10, `noticed at ${first.s} s`);
  assert.deepEqual(rest, [], "nothing more to drop: the source is never dropped");
  assert.deepEqual(
    g.dropped.map((r) => r.name),
    ["480p", "360p"],
  );
});

test("past the limit and catching up too slowly counts as behind", () => {
  const g = governor();
  // 12 s behind, catching up 0.2 s a second: back under 4 s in 40 s, too slow.
  const decisions = run(g, 0, 10, (s) => 12 - 0.2 * s);
  assert.equal(decisions[0]?.decision.action, "drop");
});

test("after a drop the restarted ladder is judged afresh, once its trend is known", () => {
  const g = governor();
  const [drop] = run(g, 0, 40, (s) => 1 + 0.1 * s, undefined, 1);
  // The restart starts 6 s behind (the start of its ffmpeg), and then keeps up.
  assert.deepEqual(
    run(g, drop.s + 1, drop.s + 60, (s) => Math.max(1, 6 - (s - drop.s))),
    [],
  );
});

test("a dropped rendition comes back after a calm minute, the cheapest first; a setback doubles the wait", () => {
  const g = governor();
  const [drop] = run(g, 0, 30, (s) => 1 + 0.5 * s);
  assert.deepEqual(drop.decision.action === "drop" && drop.decision.variants, [1, 2]);
  const t0 = drop.s + 1;
  const calm = () => 1;
  // A busy CPU (at normal priority) is no room, however small the lag.
  assert.deepEqual(
    run(g, t0, t0 + 300, calm, () => 0.95),
    [],
  );
  const t1 = t0 + 301;
  const restored = run(g, t1, t1 + 200, calm, () => 0.3, 2);
  assert.deepEqual(restored[0].decision, { action: "restore", variants: [2] }, "360p, the cheaper, first");
  assert.equal(restored[0].s - t1, RESTORE_AFTER_MS / 1000);
  assert.deepEqual(restored[1].decision, { action: "restore", variants: [1] });
  assert.equal(restored[1].s - restored[0].s, RESTORE_AFTER_MS / 1000 + 1);
  assert.deepEqual(g.running, [1, 2]);
  assert.equal(g.lagging(1), false);

  // Behind again soon after coming back: dropped again, and the next return waits twice as long.
  const t2 = restored[1].s + 1;
  const [again] = run(g, t2, t2 + 60, (s) => 1 + 0.1 * (s - t2), undefined, 1);
  assert.deepEqual(again.decision, { action: "drop", variants: [1] });
  const t3 = again.s + 1;
  const [back] = run(g, t3, t3 + 300, calm, () => 0.3, 1);
  assert.deepEqual(back.decision, { action: "restore", variants: [1] });
  assert.equal(back.s - t3, (2 * RESTORE_AFTER_MS) / 1000);
});
