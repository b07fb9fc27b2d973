/**
 * Benchmark 2: what the loop adds per model turn beyond the server's own time: SDK request
 * building, HTTP on loopback, SSE parsing, our event and history handling. Wall time per turn
 * (from the previous turn's end to this turn's turn_end event) minus the scripted server's
 * handling time of that turn's request. Wall times include waiting for a CPU on a busy machine, so
 * the loop's process CPU time per turn is measured too. The server runs in its own process; the
 * memory executor answers at once, so the engine's file I/O is not counted.
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fork } from 'node:child_process';
import { AgentLoop } from '../../src/core/agent/agentLoop';
import type { MemoryToolExecutor } from '../../src/core/memory/types';
import type { ServerProcessMessage } from './serverProcess';

export interface OverheadStats {
  turns: number;
  meanWallMs: number;
  meanServerMs: number;
  meanOverheadMs: number;
  p50OverheadMs: number;
  p95OverheadMs: number;
  /** CPU time (user + system) the loop's process spent per turn: not inflated by other processes. */
  meanCpuMs: number;
  p50CpuMs: number;
}

const instant: MemoryToolExecutor = {
  execute: async () => ({
    is_error: false,
    content: "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items and node_modules:\n4.0K\t/memories",
  }),
};

/** Runs `sessions` sessions of `turns` turns each; the first session only warms up. */
export async function measureOverhead(sessions: number, turns: number): Promise<OverheadStats> {
  const child = fork(path.join(__dirname, 'serverProcess.js'), [String(sessions), String(turns)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () =>
    new Promise<ServerProcessMessage>((resolve, reject) => {
      child.once('message', (m) => resolve(m as ServerProcessMessage));
      child.once('error', reject);
    });
  try {
    const ready = await next();
    if (ready.type !== 'ready') throw new Error('server worker did not start');
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let s = 0; s < sessions; s++) {
      const session = new AgentLoop({
        apiKey: 'sk-ant-bench-not-a-real-key',
        baseURL: ready.url,
        model: 'claude-bench',
        maxTokens: 1024,
        maxTurns: turns + 1,
        memory: instant,
        promptCaching: true,
        contextEditing: true,
      });
      let last = performance.now();
      let lastCpu = process.cpuUsage();
      const outcome = await session.send('go', (e) => {
        if (e.type !== 'turn_end') return;
        const now = performance.now();
        const cpu = process.cpuUsage(lastCpu);
        walls.push(now - last);
        cpus.push((cpu.user + cpu.system) / 1000);
        last = now;
        lastCpu = process.cpuUsage();
      });
      if (!outcome.ok) throw new Error(`overhead session failed: ${outcome.error?.message}`);
    }
    child.send('report');
    const report = await next();
    if (report.type !== 'report') throw new Error('server worker sent no report');
    const overheads: number[] = [];
    const cpu = cpus.slice(turns).sort((a, b) => a - b);
    let wall = 0;
    let server = 0;
    for (let i = turns; i < walls.length; i++) {
      wall += walls[i];
      server += report.handlingMs[i];
      overheads.push(walls[i] - report.handlingMs[i]);
    }
    overheads.sort((a, b) => a - b);
    const n = overheads.length;
    return {
      turns: n,
      meanWallMs: wall / n,
      meanServerMs: server / n,
      meanOverheadMs: (wall - server) / n,
      p50OverheadMs: overheads[Math.floor(n * 0.5)],
      p95OverheadMs: overheads[Math.min(n - 1, Math.floor(n * 0.95))],
      meanCpuMs: cpu.reduce((a, b) => a + b, 0) / cpu.length,
      p50CpuMs: cpu[Math.floor(cpu.length * 0.5)],
    };
  } finally {
    if (child.connected) child.send('close');
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  }
}
