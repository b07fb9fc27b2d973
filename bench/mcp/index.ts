/**
 * MCP server benchmark: the same deterministic memory workload as bench/engine, sent as MCP tool
 * calls to one `claude-memory mcp` process (the SDK's Client over stdio), against the baseline of
 * the same calls as JSON Lines through one `claude-memory exec` process, interleaved in the same
 * run (median of BENCH_REPS passes, fresh store each); then cold start: spawn to the first
 * answered request, for `mcp` (initialize; dist's development bundles and the minified ones the
 * package ships, built here with cliBundles.js), `exec` (one view) and bare `node -e ''`.
 * Env: BENCH_MCP_OPS (default 2000), BENCH_REPS (3), BENCH_COLD_REPS (10). Needs dist/cli.js.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SHARED_TOOL_NAME } from '../../src/core/memory/sharedTool';
import type { MemoryCommandInput } from '../../src/core/memory/types';
import { freshDir, median, runPass, table } from '../engine/measure';
import { bareTarget } from '../engine/targets';
import { CLI_PATH, measureProcessRun } from '../engine/processRun';
import { describeWorkload, generateWorkload } from '../engine/workload';

interface McpRun {
  ms: number;
  errors: number;
}

/** One server process; calls sent one at a time (as an agent does) or all at once (pipelined). */
async function measureMcp(ops: MemoryCommandInput[], mode: 'sequential' | 'pipelined'): Promise<McpRun> {
  const dir = freshDir('mcp');
  const client = new Client({ name: 'bench', version: '1' });
  try {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_PATH, 'mcp', '--workspace', dir], stderr: 'ignore' }));
    const call = (op: MemoryCommandInput) => client.callTool({ name: SHARED_TOOL_NAME, arguments: op }) as Promise<CallToolResult>;
    const start = performance.now();
    let results: CallToolResult[];
    if (mode === 'sequential') {
      results = [];
      for (const op of ops) results.push(await call(op));
    } else {
      results = await Promise.all(ops.map(call));
    }
    const ms = performance.now() - start;
    return { ms, errors: results.filter((r) => r.isError).length };
  } finally {
    await client.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Spawn to the first line on stdout after writing `input`. */
function coldStart(args: string[], input: string): Promise<number> {
  const dir = freshDir('cold');
  return new Promise<number>((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args.map((a) => (a === '$DIR' ? dir : a)), { stdio: ['pipe', 'pipe', 'ignore'] });
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const ms = performance.now() - start;
      child.kill();
      resolve(ms);
    };
    child.stdout.once('data', finish);
    child.on('exit', finish);
    child.on('error', reject);
    child.stdin.write(input);
  }).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }) + '\n';

export async function run(): Promise<void> {
  if (!fs.existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing (npm run build)`);
  const opCount = Number(process.env.BENCH_MCP_OPS ?? 2000);
  const reps = Number(process.env.BENCH_REPS ?? 3);
  const coldReps = Number(process.env.BENCH_COLD_REPS ?? 10);
  const ops = generateWorkload(opCount);
  const jsonl = ops.map((op) => JSON.stringify(op)).join('\n') + '\n';
  console.log(`\nmcp: ${opCount.toLocaleString('en-US')} mixed memory operations, one server process per pass, median of ${reps} passes`);
  console.log(`  mix: ${describeWorkload(ops)}`);

  const times = { bare: [] as number[], exec: [] as number[], execEmpty: [] as number[], sequential: [] as number[], pipelined: [] as number[] };
  const errors = { exec: 0, sequential: 0, pipelined: 0 };
  for (let rep = 0; rep < reps; rep++) {
    // Interleaved so that machine noise spreads over all of them alike.
    // What the file system itself allows: the same I/O with bare fs calls, in this process.
    const bareDir = freshDir('mcp-bare');
    times.bare.push((await runPass(bareTarget, jsonl, bareDir)).ms);
    fs.rmSync(bareDir, { recursive: true, force: true });
    const exec = await measureProcessRun(jsonl);
    const empty = await measureProcessRun('');
    if (!exec || !empty || exec.exitCode !== 0) throw new Error('the exec baseline did not run');
    times.exec.push(exec.ms);
    times.execEmpty.push(empty.ms);
    errors.exec = exec.errors;
    const seq = await measureMcp(ops, 'sequential');
    times.sequential.push(seq.ms);
    errors.sequential = seq.errors;
    const pipe = await measureMcp(ops, 'pipelined');
    times.pipelined.push(pipe.ms);
    errors.pipelined = pipe.errors;
  }
  const execNet = Math.max(1, median(times.exec) - median(times.execEmpty));
  const perSecond = (ms: number) => Math.round((opCount / ms) * 1000).toLocaleString('en-US');
  console.log(
    table(
      ['path', 'median ms', 'calls/s', 'vs exec', 'is_error results'],
      [
        ['bare fs, in-process: the same I/O, no checks, history or transport (ceiling)', median(times.bare).toFixed(0), perSecond(median(times.bare)), (execNet / median(times.bare)).toFixed(2), '-'],
        ['exec: JSON Lines, one process (baseline, startup excluded)', execNet.toFixed(0), perSecond(execNet), '1.00', errors.exec],
        ['mcp: tools/call, one at a time (round trips)', median(times.sequential).toFixed(0), perSecond(median(times.sequential)), (execNet / median(times.sequential)).toFixed(2), errors.sequential],
        ['mcp: tools/call, all sent at once (pipelined)', median(times.pipelined).toFixed(0), perSecond(median(times.pipelined)), (execNet / median(times.pipelined)).toFixed(2), errors.pipelined],
      ],
    ),
  );
  console.log('  (the same workload, so is_error counts must agree: the expected refusals of the mix)');
  const sequentialPerSecond = (opCount / median(times.sequential)) * 1000;
  console.log(`  mcp sequential = ${Math.round(sequentialPerSecond).toLocaleString('en-US')} calls/s  (goal >= ${GOAL_SEQUENTIAL_PER_SECOND.toLocaleString('en-US')}: ${sequentialPerSecond >= GOAL_SEQUENTIAL_PER_SECOND ? 'met' : 'MISSED'})`);
  const barePerSecond = (opCount / median(times.bare)) * 1000;
  console.log(`  the goal against bare fs in this run: ${(GOAL_SEQUENTIAL_PER_SECOND / barePerSecond).toFixed(2)}x of what bare fs calls do (mcp sequential = ${(sequentialPerSecond / barePerSecond).toFixed(2)}x bare fs)`);

  // The production bundles (minified, as `npm run package` builds them), next to dist's development ones.
  const minified = await buildMinifiedCli();
  try {
    const cold = { mcp: [] as number[], mcpMin: [] as number[], exec: [] as number[], node: [] as number[] };
    for (let i = 0; i < coldReps; i++) {
      cold.mcp.push(await coldStart([CLI_PATH, 'mcp', '--workspace', '$DIR'], INITIALIZE));
      cold.mcpMin.push(await coldStart([minified.cli, 'mcp', '--workspace', '$DIR'], INITIALIZE));
      cold.exec.push(await coldStart([CLI_PATH, 'exec', '--workspace', '$DIR'], '{"command":"view","path":"/memories"}\n'));
      cold.node.push(await coldStart(['-e', "process.stdout.write('x')"], ''));
    }
    const vsNode = (xs: number[]) => (median(xs) / median(cold.node)).toFixed(2);
    console.log(`\ncold start: spawn to the first answered request, median of ${coldReps}, interleaved`);
    console.log(
      table(
        ['process', 'median ms', 'vs bare node'],
        [
          ['node -e (baseline: Node startup alone)', median(cold.node).toFixed(0), '1.00'],
          ['claude-memory exec, first view answered', median(cold.exec).toFixed(0), vsNode(cold.exec)],
          ['claude-memory mcp, initialize answered (dist, development build)', median(cold.mcp).toFixed(0), vsNode(cold.mcp)],
          ['claude-memory mcp, initialize answered (minified, as packaged)', median(cold.mcpMin).toFixed(0), vsNode(cold.mcpMin)],
        ],
      ),
    );
    const goal = Number(vsNode(cold.mcpMin)) <= GOAL_COLD_VS_NODE;
    console.log(`  mcp (packaged) / bare node = ${vsNode(cold.mcpMin)}x  (goal <= ${GOAL_COLD_VS_NODE}x: ${goal ? 'met' : 'MISSED'})`);
    console.log(`  bundle sizes (minified): ${minified.sizes}`);
  } finally {
    fs.rmSync(minified.dir, { recursive: true, force: true });
  }
}

/** Issue 20: sequential tools/call round trips per second on the mixed workload. */
const GOAL_SEQUENTIAL_PER_SECOND = 1500;
/** Issue 20: `mcp` answers its first request within 1.5x the time bare Node takes to start. */
const GOAL_COLD_VS_NODE = 1.5;

/** The CLI bundles built minified into a temporary folder (cliBundles.js, as the package build does). */
async function buildMinifiedCli(): Promise<{ dir: string; cli: string; sizes: string }> {
  const root = path.resolve(__dirname, '../../..');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { cliBuilds } = require(path.join(root, 'cliBundles.js')) as { cliBuilds: (root: string, outdir: string) => esbuild.BuildOptions[] };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cm-bench-minified-'));
  for (const options of cliBuilds(root, dir)) await esbuild.build({ ...options, minify: true, logLevel: 'error' });
  const sizes = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.js'))
    .sort()
    .map((n) => `${n} ${Math.round(fs.statSync(path.join(dir, n)).size / 1024)} KiB`)
    .join(', ');
  return { dir, cli: path.join(dir, 'cli.js'), sizes };
}
