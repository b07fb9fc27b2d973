/**
 * A separate Node process that writes to a memory store through the same factory as the CLI
 * (createNodeMemoryEngine: Node adapter + store lock), for the cross-process tests:
 *   node storeWriterProcess.js <storeDir> insert <count> <tag>   count inserts at the top of /memories/log.md
 *   node storeWriterProcess.js <storeDir> create <memoryPath>     one create; prints its result
 *   node storeWriterProcess.js <storeDir> rewrite <lines>         whole-file versions of /memories/big.md, forever
 *   node storeWriterProcess.js <storeDir> hold <rounds>           takes the bare lock and proves nobody else is inside
 * Each prints one JSON line when done (rewrite prints `ready` after its first write).
 */
import { closeSync, constants, openSync, unlinkSync } from 'node:fs';
import * as path from 'node:path';
import { createNodeMemoryEngine } from '../../src/platform/node/nodeMemoryEngine';

async function main(): Promise<void> {
  const [storeDir, mode, arg, tag] = process.argv.slice(2);
  const { engine, lock } = createNodeMemoryEngine(storeDir, { createPolicy: mode === 'rewrite' ? 'overwrite' : 'error', guards: false });
  const out = (v: unknown) => process.stdout.write(JSON.stringify(v) + '\n');
  switch (mode) {
    case 'insert': {
      const errors: string[] = [];
      for (let i = 0; i < Number(arg); i++) {
        const r = await engine.execute({ command: 'insert', path: '/memories/log.md', insert_line: 0, insert_text: `${tag} ${i}` });
        if (r.is_error) errors.push(String(r.content));
      }
      out({ errors });
      break;
    }
    case 'create': {
      const r = await engine.execute({ command: 'create', path: arg, file_text: `written by ${process.pid}\n` });
      out(r);
      break;
    }
    case 'rewrite': {
      const lines = Number(arg);
      for (let v = 0; ; v++) {
        const text = Array.from({ length: lines }, (_, i) => `version ${v} line ${i} ${'x'.repeat(80)}`).join('\n') + '\n';
        const r = await engine.execute({ command: 'create', path: '/memories/big.md', file_text: text });
        if (r.is_error) out({ error: r.content });
        if (v === 0) process.stdout.write('ready\n');
      }
    }
    case 'hold': {
      const marker = path.join(storeDir, 'inside.marker');
      let overlaps = 0;
      for (let i = 0; i < Number(arg); i++) {
        const held = await lock.acquire();
        try {
          closeSync(openSync(marker, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY));
        } catch {
          overlaps++;
        }
        await new Promise((r) => setTimeout(r, 1));
        try {
          unlinkSync(marker);
        } catch {
          // Someone else's (an overlap, already counted).
        }
        await held.release();
      }
      out({ overlaps });
      break;
    }
    default:
      throw new Error(`unknown mode ${mode}`);
  }
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
